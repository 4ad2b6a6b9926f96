/**
 * The process around a reference server: start it from the environment, refuse a bad
 * configuration with every problem listed (exit code 1), print where it listens and the
 * walkthrough, and shut down gracefully on SIGINT/SIGTERM (a second signal exits at once).
 */
import { isKitError } from '@bnpl-kit/core';
import { formatConfigProblems } from './config.js';
import { demoOffers } from './demo-data.js';
import { providingBasicProfile } from './embedded-sandbox.js';
import { type ReferenceServer, type StartReferenceServerOptions, startReferenceServer } from './server.js';
import { startBanner } from './walkthrough.js';

export type RunOptions = Omit<StartReferenceServerOptions, 'env' | 'logger' | 'store'>;

function describeDatabase(server: ReferenceServer): string {
  return `${server.store.dialect === 'pglite' ? 'PGlite (embedded) at' : 'PostgreSQL at'} ${server.store.location}`;
}

/** The sandbox start banner of a started server. */
export function sandboxBanner(server: ReferenceServer, name: string): string {
  const { config } = server;
  // Secrets are printed until a start that printed them succeeded (`markShown`); later starts read
  // them back from the environment or the key file.
  const unshown = new Set(
    (server.keys?.unshownExports ?? []).map((line) => /^export (\w+)=/.exec(line)?.[1]),
  );
  const appId = server.keys?.appId;
  return startBanner({
    name,
    mode: config.integrationMode,
    framework: config.framework,
    baseUrl: server.publicBaseUrl,
    marketApiToken: unshown.has('MARKET_API_TOKEN') ? server.marketApiToken.reveal() : undefined,
    apiKey: unshown.has('APP_API_KEY') ? server.keys?.appApiKey.reveal() : undefined,
    database: describeDatabase(server),
    serviceUrl: server.embedded?.serviceUrl ?? config.serviceApiUrl ?? '',
    embedded: server.embedded !== undefined,
    keyExports: server.keys?.unshownExports ?? [],
    keyFile: server.keys?.file,
    webhookUrl: server.market.webhookUrl,
    shopUrl: server.shopUrl,
    // An external sandbox learns this server's data-sharing settings from the walkthrough's step 0.
    dashboard:
      server.embedded === undefined && config.integrationMode === 'data-sharing' && appId !== undefined
        ? { appId, basicProfileKeys: providingBasicProfile(config), offers: demoOffers(appId) }
        : undefined,
  });
}

export async function runReferenceServer(options: RunOptions): Promise<ReferenceServer | undefined> {
  // Signals are ours from before the start: a Ctrl-C while the database initialises, or right
  // after listening while the banner prints, must still close everything and exit 0.
  let server: ReferenceServer | undefined;
  let stopping = false;
  const shutdown = (running: ReferenceServer, signal: NodeJS.Signals) => {
    running.logger.info({ signal }, 'shutting down');
    // Readiness turns 503 now; connections are still accepted for the grace period, so a balancer
    // polling /readyz moves traffic away before anything is refused.
    running.close({ graceMs: running.config.drainGraceMs }).then(
      () => {
        process.exitCode = 0;
        // Everything is closed; if some library still holds the loop open, do not hang on it.
        setTimeout(() => process.exit(0), 2_000).unref();
      },
      (error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  let pendingSignal: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${options.name}: second ${signal}, exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    if (server) shutdown(server, signal);
    else pendingSignal = signal;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  let started: ReferenceServer;
  try {
    started = await startReferenceServer({ ...options, env: process.env });
  } catch (error) {
    if (isKitError(error, 'misconfigured')) process.stderr.write(formatConfigProblems(error, options.name));
    else process.stderr.write(`${options.name} could not start: ${(error as Error).message}\n`);
    process.exitCode = 1;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    return undefined;
  }
  server = started;
  if (pendingSignal) {
    shutdown(started, pendingSignal);
    return started;
  }
  const { config, logger } = started;
  if (config.mode === 'sandbox') {
    process.stdout.write(sandboxBanner(started, options.name));
    // Only now, on a start that got this far, do the keys count as shown.
    await started.keys?.markShown().catch((error: unknown) => {
      logger.warn(
        { err: error },
        'could not record that the sandbox keys were shown; they print again next start',
      );
    });
  }
  // The readiness signal comes last: whoever waits for `listening` (a process manager, a script,
  // a test) finds the banner, the walkthrough and the key file written when it arrives. Both go to
  // stdout, which is written in order, so the banner's lines are read before this one. A signal
  // that came while the banner printed has begun the shutdown: not ready then.
  if (stopping) return started;
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

  return started;
}
