/**
 * `bnpl-kit sandbox`: the simulated BNPL service over HTTP, for a market on a laptop or in CI. It
 * prints what the market must be configured with (service URL, API key, public key) and where the
 * admin API is, then serves until interrupted.
 */
import { readFile } from 'node:fs/promises';
import { base64UrlDecode, seedToPkcs8Pem } from '@bnpl-kit/core/wire';
import {
  createPersistentSandbox,
  DEFAULT_ORGANIZATION_ID,
  generateApiKey,
  type OrganizationInput,
  optionsFromConfig,
  type SandboxOptions,
  type SandboxServer,
  startSandboxServer,
} from '@bnpl-kit/sandbox';
import { InvalidArgumentError } from 'commander';
import type { CliIO, CommandModule } from '../index.js';
import { openSandboxRecords, rememberedKeys } from './sandbox-data-dir.js';

interface SandboxFlags {
  port: number;
  host: string;
  config?: string;
  adminToken?: string;
  orgId?: string;
  apiKey?: string;
  webhookUrl?: string[];
  offerFilteringUrl?: string;
  timeScale?: number;
  autoApprove?: number;
  autoReady?: number;
  dataDir?: string;
}

function number(kind: 'port' | 'ms' | 'scale') {
  return (text: string): number => {
    const value = Number(text);
    const ok =
      kind === 'scale'
        ? value > 0
        : Number.isInteger(value) && value >= 0 && (kind !== 'port' || value <= 65535);
    if (!ok) throw new InvalidArgumentError(`not a valid ${kind === 'scale' ? 'positive number' : kind}`);
    return value;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A signing key generated for this run is shown once, as the dashboard shows it; never a configured one. */
interface Prepared {
  options: SandboxOptions;
  generatedSigningKey: string | undefined;
}

async function prepare(flags: SandboxFlags): Promise<Prepared> {
  const options = flags.config ? optionsFromConfig(JSON.parse(await readFile(flags.config, 'utf8'))) : {};
  // With --data-dir, what would be generated is the previous run's (or generated once and kept).
  const kept = flags.dataDir === undefined ? undefined : await rememberedKeys(flags.dataDir);
  if (kept) options.signingKey ??= kept.webhookSigningKey;
  let generatedSigningKey: string | undefined;
  if (!options.organizations || options.organizations.length === 0) {
    // WIRE §7/§8: APP_SIGNING_KEY is PKCS#8, printed as its PEM body on one line, also when it is
    // the earlier run's: the data directory's key file keeps the 32-byte seed.
    const seed = kept ? base64UrlDecode(kept.appSigningKey) : crypto.getRandomValues(new Uint8Array(32));
    if (seed?.length !== 32)
      throw new Error(`${flags.dataDir}/sandbox-keys.json: app_signing_key is not a 32-byte key`);
    generatedSigningKey = seedToPkcs8Pem(seed)
      .replace(/-----[A-Z ]+-----/g, '')
      .replace(/\s+/g, '');
    options.organizations = [{ id: DEFAULT_ORGANIZATION_ID, signingKey: generatedSigningKey }];
  }
  const [first, ...rest] = options.organizations;
  const org: OrganizationInput = {
    ...first!,
    ...(flags.orgId && { id: flags.orgId }),
    ...(flags.apiKey && { apiKeys: [flags.apiKey] }),
    ...(flags.webhookUrl && { webhookUrls: flags.webhookUrl }),
    ...(flags.offerFilteringUrl && { offerFilteringUrl: flags.offerFilteringUrl }),
  };
  // Generated here rather than by the sandbox so that it can be printed.
  if (!org.apiKeys || org.apiKeys.length === 0) org.apiKeys = [kept?.apiKey ?? generateApiKey()];
  options.organizations = [org, ...rest];
  if (flags.adminToken) options.adminToken = flags.adminToken;
  if (flags.timeScale !== undefined) options.webhooks = { ...options.webhooks, timeScale: flags.timeScale };
  if (flags.autoApprove !== undefined || flags.autoReady !== undefined) {
    options.auto = {
      ...options.auto,
      ...(flags.autoApprove !== undefined && { approveAfterMs: flags.autoApprove }),
      ...(flags.autoReady !== undefined && { readyAfterMs: flags.autoReady }),
    };
  }
  return { options, generatedSigningKey };
}

/**
 * The market's `PUBLIC_BASE_URL` for a webhook URL registered as `<base>/v1/webhook`: signatures
 * cover the URL as registered, so the market must verify for exactly that one (localhost is not
 * 127.0.0.1). Undefined for any other shape of URL.
 */
export function publicBaseUrlOf(webhookUrl: string | undefined): string | undefined {
  return webhookUrl?.endsWith('/v1/webhook') ? webhookUrl.slice(0, -'/v1/webhook'.length) : undefined;
}

async function banner(server: SandboxServer, generatedSigningKey: string | undefined): Promise<string> {
  const org = server.sandbox.organizations.primary();
  const key = org.apiKeys[0]?.key ?? '(none)';
  const url = server.url;
  const lines = [
    `BNPL sandbox service listening on ${url}`,
    '',
    'Configure the market with (paste into its shell):',
    `export SERVICE_API_URL=${url}`,
    `export APP_ID=${org.id}`,
    `export APP_API_KEY=${key}`,
    `export SERVICE_PUBLIC_KEY=${await server.sandbox.publicKey()}`,
  ];
  if (generatedSigningKey)
    lines.push(
      `export APP_SIGNING_KEY=${generatedSigningKey}   # generated for this run (data-sharing mode)`,
    );
  const base = publicBaseUrlOf(org.webhookUrls[0]);
  if (base)
    lines.push(
      `export PUBLIC_BASE_URL=${base}   # webhooks are signed for ${org.webhookUrls[0]}: the market must verify that exact URL`,
    );
  lines.push(
    '',
    org.webhookUrls.length > 0
      ? `Webhooks go to: ${org.webhookUrls.join(', ')}`
      : `No webhook URL registered yet: PUT ${url}/sandbox/organizations/${org.id} {"webhook_urls":["<PUBLIC_BASE_URL>/v1/webhook"]} (or --webhook-url)`,
    '',
    'Admin API (JSON):',
    `  GET  ${url}/sandbox                            the list of admin endpoints`,
    `  GET  ${url}/sandbox/state                      organisations, users, orders, deliveries`,
    `  PUT  ${url}/sandbox/organizations/:id          dashboard settings (fields left out keep their values)`,
    `  POST ${url}/sandbox/orders/:id/approve|reject|ready|paid`,
    `  GET  ${url}/sandbox/webhooks/deliveries        every attempt; POST …/:id/replay`,
    `  POST ${url}/sandbox/faults                     fail routes, drop/duplicate/reorder/delay webhooks`,
    `  GET  ${url}/sandbox/console                    the same in a browser`,
    `  GET  ${url}/openapi.json, ${url}/sandbox/openapi.json   the service and admin APIs' OpenAPI documents`,
    '',
    'Press Ctrl+C to stop.',
    '',
  );
  return lines.join('\n');
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Resolves on the first of SIGINT or SIGTERM, leaving no listener behind. */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const signal of STOP_SIGNALS) process.off(signal, stop);
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.once(signal, stop);
  });
}

/** `wait` decides how long the server runs; tests pass one that resolves when they are done. */
export function createSandboxCommand(
  wait: (server: SandboxServer, io: CliIO) => Promise<void> = untilSignal,
): CommandModule {
  return (program, io) => {
    program
      .command('sandbox')
      .description('run the simulated BNPL service (service API, signed webhooks, admin API) over HTTP')
      .option('-p, --port <port>', 'port to listen on (0 picks a free one)', number('port'), 4010)
      .option('--host <host>', 'interface to bind', '127.0.0.1')
      .option('-c, --config <file>', 'JSON configuration (organisations, webhooks, auto scenario…)')
      .option('--admin-token <token>', 'require Authorization: Bearer <token> on /sandbox/… admin routes')
      .option('--org-id <id>', 'organisation ID of the first organisation')
      .option('--api-key <key>', 'API key of the first organisation (generated when absent)')
      .option('--webhook-url <url>', 'webhook URL of the first organisation (repeatable)', collect)
      .option(
        '--offer-filtering-url <url>',
        'offer filtering URL of the first organisation (data-sharing mode)',
      )
      .option('--time-scale <factor>', 'multiply the webhook retry schedule (e.g. 0.001)', number('scale'))
      .option('--auto-approve <ms>', 'approve every new order after this many ms', number('ms'))
      .option('--auto-ready <ms>', 'confirm readiness this many ms after approval', number('ms'))
      .option('--data-dir <dir>', 'keep orders, users and keys in this directory across restarts')
      .action(async (flags: SandboxFlags) => {
        const { options, generatedSigningKey } = await prepare(flags);
        const stored = flags.dataDir === undefined ? undefined : await openSandboxRecords(flags.dataDir);
        const sandbox = stored && (await createPersistentSandbox({ ...options, records: stored.records }));
        try {
          const server = await startSandboxServer({
            ...options,
            ...(sandbox && { sandbox }),
            port: flags.port,
            host: flags.host,
          });
          try {
            for (const warning of server.warnings) io.stderr(`warning: ${warning}\n`);
            io.stdout(await banner(server, generatedSigningKey));
            await wait(server, io);
          } finally {
            await server.close();
          }
        } finally {
          await sandbox?.closeAndFlush();
          await stored?.close();
        }
      });
  };
}

export const sandboxCommand: CommandModule = createSandboxCommand();
