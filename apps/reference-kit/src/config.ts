/**
 * The reference servers' configuration: core's `loadConfig` (WIRE §8) plus the few variables that
 * only a runnable server needs (framework, bind address, data directory, log level, job lease).
 * Every problem is collected and reported at once, by variable name, and secrets stay `Secret`s.
 */
import {
  type FieldIssue,
  type IntegrationMode,
  type KitConfig,
  KitError,
  loadConfig,
  Secret,
} from '@bnpl-kit/core';
import { RECOMMENDED_SERVER_LIMITS } from '@bnpl-kit/core/node';
import { retentionWindowMs } from '@bnpl-kit/store/worker';
import { z } from 'zod';

export const FRAMEWORK_NAMES = ['express', 'koa', 'hono'] as const;
export type FrameworkName = (typeof FRAMEWORK_NAMES)[number];

export interface ServerDefaults {
  /** Default `PORT`: 3000 for basic mode, 3001 for data-sharing, so both run side by side. */
  port: number;
  /** Default `DATA_DIR` (PGlite directory and the sandbox key file). */
  dataDir: string;
}

export interface ServerConfig extends KitConfig {
  framework: FrameworkName;
  host: string;
  dataDir: string;
  /** A schema for the kit's tables (useful to share one PostgreSQL database); default search_path. */
  databaseSchema: string | undefined;
  logLevel: string;
  /** How long a worker holds a claimed job before another worker may take it over (crash recovery). */
  jobLeaseMs: number;
  /** On SIGTERM, how long readiness answers 503 while the server keeps serving (`DRAIN_GRACE_MS`). */
  drainGraceMs: number;
  /** Reconciliation (`RECONCILIATION`, default on): asks the service about orders whose webhooks never came. */
  reconciliation: { afterMs: number; everyMs: number } | false;
  /** Finished jobs and processed event IDs are deleted after this (`RETENTION_DAYS`, default 7). */
  retentionMs: number;
  /** Longest wait for a request's headers (`HEADERS_TIMEOUT_MS`, default 10 s); then 408. */
  headersTimeoutMs: number;
  /** Longest wait for a whole request, body included (`REQUEST_TIMEOUT_MS`, default 30 s); then 408. */
  requestTimeoutMs: number;
  /** A connection with no request in flight, silent this long, is closed (`IDLE_TIMEOUT_MS`). */
  idleTimeoutMs: number;
  /** At this many open connections a new one closes the oldest idle or header-pending one (`MAX_CONNECTIONS`). */
  maxConnections: number;
  /** PostgreSQL: connection timeout (`DATABASE_CONNECT_TIMEOUT_MS`, default 5 s). */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: statement timeout (`DATABASE_STATEMENT_TIMEOUT_MS`, default 15 s). */
  databaseStatementTimeoutMs: number;
  /** True when no `SERVICE_API_URL` is set in sandbox mode: the sandbox runs inside this server. */
  embeddedSandbox: boolean;
  /** `METRICS_TOKEN`: `GET /metrics` requires it as a bearer token; production serves no metrics without it. */
  metricsToken: Secret | undefined;
}

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** `DRAIN_GRACE_MS`: two polls of a balancer's health check at 2 s, Kubernetes' default period is 10 s. */
export const DEFAULT_DRAIN_GRACE_MS = 5_000;

const serverEnvSchema = z.object({
  FRAMEWORK: optional.pipe(
    z.enum(FRAMEWORK_NAMES, { error: `must be one of ${FRAMEWORK_NAMES.join(', ')}` }).default('hono'),
  ),
  HOST: optional,
  DATA_DIR: optional,
  DATABASE_SCHEMA: optional.pipe(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { error: 'must be a plain identifier (letters, digits, _)' })
      .optional(),
  ),
  LOG_LEVEL: optional.pipe(
    z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
        error: 'must be trace, debug, info, warn, error, fatal or silent',
      })
      .default('info'),
  ),
  // Timeouts chosen for an API, not Node's defaults (300 s for a whole request): a client that
  // trickles its headers or body is answered 408 and the connection is freed.
  HEADERS_TIMEOUT_MS: optional.pipe(
    z.coerce
      .number<string | undefined>()
      .int()
      .min(100)
      .max(600_000)
      .default(RECOMMENDED_SERVER_LIMITS.headersTimeoutMs),
  ),
  REQUEST_TIMEOUT_MS: optional.pipe(
    z.coerce
      .number<string | undefined>()
      .int()
      .min(100)
      .max(600_000)
      .default(RECOMMENDED_SERVER_LIMITS.requestTimeoutMs),
  ),
  IDLE_TIMEOUT_MS: optional.pipe(
    z.coerce
      .number<string | undefined>()
      .int()
      .min(100)
      .max(600_000)
      .default(RECOMMENDED_SERVER_LIMITS.idleTimeoutMs),
  ),
  // Under the process's open-file limit, with room for the database, the logs and the sandbox.
  MAX_CONNECTIONS: optional.pipe(
    z.coerce
      .number<string | undefined>()
      .int()
      .min(1)
      .max(1_000_000)
      .default(RECOMMENDED_SERVER_LIMITS.maxConnections),
  ),
  DATABASE_CONNECT_TIMEOUT_MS: optional.pipe(
    z.coerce.number<string | undefined>().int().min(100).max(600_000).default(5_000),
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: optional.pipe(
    z.coerce.number<string | undefined>().int().min(100).max(3_600_000).default(15_000),
  ),
  METRICS_TOKEN: optional,
  JOB_LEASE_MS: optional.pipe(
    z.coerce.number<string | undefined>().int().min(100).max(3_600_000).default(60_000),
  ),
  // On SIGTERM: readiness 503 at once, connections still accepted this long, then the drain.
  DRAIN_GRACE_MS: optional.pipe(
    z.coerce.number<string | undefined>().int().min(0).max(600_000).default(DEFAULT_DRAIN_GRACE_MS),
  ),
  RECONCILIATION: optional.pipe(z.enum(['on', 'off'], { error: 'must be on or off' }).default('on')),
  // RECONCILE_AFTER_MS and RECONCILE_EVERY_MS: core's `loadConfig` (createMarketWorker reads them too).
  RETENTION_DAYS: optional.pipe(z.coerce.number<string | undefined>().positive().max(3_650).default(7)),
});

const DAY_MS = 86_400_000;

/** A retention inside the webhook replay window would forget event IDs the service may still send. */
function retentionProblem(days: number, toleranceSeconds: number | undefined): FieldIssue | undefined {
  try {
    retentionWindowMs({ afterMs: days * DAY_MS, webhookToleranceSeconds: toleranceSeconds });
    return undefined;
  } catch (error) {
    return { path: 'RETENTION_DAYS', message: (error as Error).message };
  }
}

function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/**
 * Reads the environment. Throws one `misconfigured` KitError whose `errors` list every problem;
 * `formatConfigProblems` turns it into the text printed before exiting with code 1.
 */
export function loadServerConfig(
  env: Record<string, string | undefined>,
  options: { integrationMode: IntegrationMode; defaults: ServerDefaults },
): ServerConfig {
  const problems: FieldIssue[] = [];
  let kit: KitConfig | undefined;
  try {
    kit = loadConfig({ ...env, PORT: env.PORT?.trim() || String(options.defaults.port) }, options);
  } catch (error) {
    if (!(error instanceof KitError) || error.code !== 'misconfigured') throw error;
    problems.push(...(error.errors ?? [{ path: 'configuration', message: error.message }]));
  }
  const server = serverEnvSchema.safeParse(env);
  if (!server.success) problems.push(...issuesOf(server.error));

  const production = (env.MODE?.trim() || 'sandbox') === 'production';
  if (production && !env.SERVICE_API_URL?.trim()) {
    problems.push({
      path: 'MODE',
      message: 'production cannot use the embedded sandbox; set SERVICE_API_URL to the real service',
    });
  }
  const embedded = !production && kit !== undefined && kit.serviceApiUrl === undefined;
  if (embedded && kit?.servicePublicKey !== undefined) {
    problems.push({
      path: 'SERVICE_PUBLIC_KEY',
      message: 'must not be set with the embedded sandbox (its key is generated); set SERVICE_API_URL too',
    });
  }
  if (!production && kit?.serviceApiUrl !== undefined) {
    // An external service knows its organisation and keys; they cannot be invented here.
    for (const name of ['APP_ID', 'APP_API_KEY'] as const) {
      if (env[name]?.trim() === undefined || env[name]?.trim() === '') {
        problems.push({ path: name, message: 'is required when SERVICE_API_URL is set' });
      }
    }
    if (options.integrationMode === 'data-sharing' && !env.APP_SIGNING_KEY?.trim()) {
      problems.push({ path: 'APP_SIGNING_KEY', message: 'is required when SERVICE_API_URL is set' });
    }
  }
  if (server.success) {
    const problem = retentionProblem(server.data.RETENTION_DAYS, kit?.webhookToleranceSeconds);
    if (problem) problems.push(problem);
  }
  const metricsToken = server.success ? server.data.METRICS_TOKEN : undefined;
  if (production && metricsToken !== undefined && metricsToken.length < 32) {
    problems.push({ path: 'METRICS_TOKEN', message: 'must be at least 32 characters in production' });
  }
  if (problems.length > 0 || kit === undefined || !server.success) {
    const list = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    throw new KitError('misconfigured', `Invalid configuration: ${list}`, { errors: dedupe(problems) });
  }
  const s = server.data;
  return {
    ...kit,
    framework: s.FRAMEWORK,
    // The embedded sandbox's admin API is open: keep it on loopback unless told otherwise.
    host: s.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    dataDir: s.DATA_DIR ?? options.defaults.dataDir,
    databaseSchema: s.DATABASE_SCHEMA,
    logLevel: s.LOG_LEVEL,
    jobLeaseMs: s.JOB_LEASE_MS,
    drainGraceMs: s.DRAIN_GRACE_MS,
    reconciliation:
      s.RECONCILIATION === 'on' ? { afterMs: kit.reconcileAfterMs, everyMs: kit.reconcileEveryMs } : false,
    retentionMs: s.RETENTION_DAYS * DAY_MS,
    headersTimeoutMs: s.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: Math.max(s.REQUEST_TIMEOUT_MS, s.HEADERS_TIMEOUT_MS),
    idleTimeoutMs: s.IDLE_TIMEOUT_MS,
    maxConnections: s.MAX_CONNECTIONS,
    databaseConnectTimeoutMs: s.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: s.DATABASE_STATEMENT_TIMEOUT_MS,
    embeddedSandbox: embedded,
    metricsToken: metricsToken === undefined ? undefined : new Secret(metricsToken),
  };
}

function dedupe(problems: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The human-readable refusal: one line per problem. */
export function formatConfigProblems(error: KitError, serverName: string): string {
  const problems = error.errors ?? [{ path: 'configuration', message: error.message }];
  return [
    `${serverName} cannot start: the configuration has ${problems.length} problem(s)`,
    ...problems.map((p) => `  - ${p.path} ${p.message}`),
    '',
  ].join('\n');
}
