/**
 * The process around a reference server: start it from the environment, refuse a bad
 * configuration with every problem listed (exit code 1), print where it listens and the
 * walkthrough, and shut down gracefully on SIGINT/SIGTERM (a second signal exits at once).
 */
import { isKitError } from '@bnpl-kit/core';
import { formatConfigProblems } from './config.js';
import { type ReferenceServer, type StartReferenceServerOptions, startReferenceServer } from './server.js';
import { startBanner } from './walkthrough.js';

export type RunOptions = Omit<StartReferenceServerOptions, 'env' | 'logger' | 'store'>;

function describeDatabase(server: ReferenceServer): string {
  return `${server.store.dialect === 'pglite' ? 'PGlite (embedded) at' : 'PostgreSQL at'} ${server.store.location}`;
}

/** The sandbox start banner of a started server. */
export function sandboxBanner(server: ReferenceServer, name: string): string {
  const { config } = server;
  const generated = new Set(
    (server.keys?.generatedExports ?? []).map((line) => /^export (\w+)=/.exec(line)?.[1]),
  );
  return startBanner({
    name,
    mode: config.integrationMode,
    framework: config.framework,
    baseUrl: server.publicBaseUrl,
    // Secrets are printed once, on the start that generated them; later starts read them back.
    marketApiToken: generated.has('MARKET_API_TOKEN') ? server.marketApiToken.reveal() : undefined,
    apiKey: generated.has('APP_API_KEY') ? server.keys?.appApiKey.reveal() : undefined,
    database: describeDatabase(server),
    serviceUrl: server.embedded?.serviceUrl ?? config.serviceApiUrl ?? '',
    embedded: server.embedded !== undefined,
    generatedExports: server.keys?.generatedExports ?? [],
    keyFile: server.keys?.file,
    shopUrl: server.shopUrl,
  });
}

export async function runReferenceServer(options: RunOptions): Promise<ReferenceServer | undefined> {
  let server: ReferenceServer;
  try {
    server = await startReferenceServer({ ...options, env: process.env });
  } catch (error) {
    if (isKitError(error, 'misconfigured')) process.stderr.write(formatConfigProblems(error, options.name));
    else process.stderr.write(`${options.name} could not start: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const { config, logger } = server;
  logger.info(
    {
      url: server.url,
      publicBaseUrl: server.publicBaseUrl,
      mode: config.mode,
      integrationMode: config.integrationMode,
      framework: config.framework,
      database: server.store.dialect,
      startupMs: Math.round(process.uptime() * 1000),
    },
    'listening',
  );
  if (config.mode === 'sandbox') process.stdout.write(sandboxBanner(server, options.name));

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => {
        process.exitCode = 0;
        // Everything is closed; if some library still holds the loop open, do not hang on it.
        setTimeout(() => process.exit(0), 2_000).unref();
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return server;
}
