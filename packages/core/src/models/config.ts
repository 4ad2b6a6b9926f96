/**
 * Configuration (WIRE §8). Everything is validated at start-up and every problem is reported at
 * once, by variable name, so a developer fixes their `.env` in one pass. Secrets are wrapped in
 * `Secret` and so never show up in a log line or a printout.
 */
import * as z from 'zod';
import { type FieldIssue, KitError } from '../errors.js';
import { Secret } from './secret.js';
import { issuesOf } from './wire.js';

/** How `scope_hash` is computed: `per-scope` (default) or the prior art's `all-scopes` (claims/all-scopes-hash.ts). */
export const CLAIM_SCOPE_HASH_MODES = ['per-scope', 'all-scopes'] as const;
export type ClaimScopeHash = (typeof CLAIM_SCOPE_HASH_MODES)[number];

export const BASIC_PROFILE_KEYS = ['phone', 'name', 'email', 'address'] as const;
export type BasicProfileKey = (typeof BASIC_PROFILE_KEYS)[number];
export const INTEGRATION_MODES = ['basic', 'data-sharing'] as const;
export type IntegrationMode = (typeof INTEGRATION_MODES)[number];
export type ServiceMode = 'sandbox' | 'production';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalSecret = optionalText.transform((v) => (v === undefined ? undefined : new Secret(v)));
const optionalUrl = optionalText.refine(
  (v) => v === undefined || (/^https?:\/\//.test(v) && URL.canParse(v)),
  {
    error: 'must be an absolute http(s) URL',
  },
);

/** The URL schemes the store speaks (node-postgres); anything else would be tried as PostgreSQL. */
export const DATABASE_URL_SCHEMES = ['postgres:', 'postgresql:'] as const;

/** What is wrong with a `DATABASE_URL`, never echoing it (it may hold a password). */
export function databaseUrlProblem(value: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined || !(DATABASE_URL_SCHEMES as readonly string[]).includes(`${scheme}:`)) {
    const given = scheme === undefined ? 'no scheme' : `the scheme "${scheme}:"`;
    return `must be a PostgreSQL URL (postgres:// or postgresql://); it has ${given}. Leave it unset for the embedded PGlite database`;
  }
  if (!URL.canParse(value)) {
    const port = /^[^:]+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*):([^/?#]*)/.exec(value)?.[1];
    const hint = '(a password containing @, #, / or : must be percent-encoded)';
    if (port !== undefined && /^\d+$/.test(port)) return 'has a port above 65535';
    if (port !== undefined && port !== '') return `has a malformed port: it must be a number ${hint}`;
    return `is not a valid URL ${hint}`;
  }
  return undefined;
}

/** Reconciliation asks the service about orders unchanged this long (`RECONCILE_AFTER_MS`). */
/**
 * How long one attempt of a service call may take (`SERVICE_TIMEOUT_MS`, WIRE R-SVC-05). Here, in
 * the models, so that the configuration and the service client read one value.
 */
export const DEFAULT_SERVICE_TIMEOUT_MS = 8_000;

export const DEFAULT_RECONCILE_AFTER_MS = 10 * 60_000;
/** How often a reconciliation pass starts (`RECONCILE_EVERY_MS`). */
export const DEFAULT_RECONCILE_EVERY_MS = 60_000;

const envSchema = z.object({
  MODE: z.enum(['sandbox', 'production'], { error: 'must be "sandbox" or "production"' }).default('sandbox'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_ID: optionalText,
  APP_SIGNING_KEY: optionalSecret,
  APP_API_KEY: optionalSecret,
  APP_PROVIDING_BASIC_PROFILE: optionalText
    .transform((v) =>
      v === undefined
        ? []
        : v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(BASIC_PROFILE_KEYS, { error: `each key must be one of ${BASIC_PROFILE_KEYS.join(', ')}` }),
      ),
    ),
  DATABASE_URL: optionalText
    .superRefine((v, ctx) => {
      const problem = v === undefined ? undefined : databaseUrlProblem(v);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => (v === undefined ? undefined : new Secret(v))),
  SERVICE_API_URL: optionalUrl,
  SERVICE_PUBLIC_KEY: optionalText,
  PUBLIC_BASE_URL: optionalUrl,
  MARKET_API_TOKEN: optionalSecret,
  BNPL_CALLBACK_URL: optionalUrl,
  WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  SERVICE_TIMEOUT_MS: optionalText.pipe(
    z.coerce
      .number<string | undefined>({ error: 'must be a number of milliseconds' })
      .int()
      .min(100)
      .max(120_000)
      .default(DEFAULT_SERVICE_TIMEOUT_MS),
  ),
  // WIRE §7: `all-scopes` reproduces the prior-art service's claim-token scope hash.
  CLAIM_SCOPE_HASH: optionalText.pipe(
    z.enum(CLAIM_SCOPE_HASH_MODES, { error: 'must be "per-scope" or "all-scopes"' }).default('per-scope'),
  ),
  // How many reverse proxies in front of the app append to X-Forwarded-For (`clientKeyFromForwardedFor`).
  TRUST_PROXY: optionalText.pipe(
    z.coerce
      .number<string | undefined>({ error: 'must be the number of proxies in front of the app (0 for none)' })
      .int({ error: 'must be a whole number of proxies (0 for none)' })
      .min(0)
      .max(10)
      .default(0),
  ),
  // The worker's reconciliation (`createMarketWorker` reads these from the same configuration).
  RECONCILE_AFTER_MS: optionalText.pipe(
    z.coerce
      .number<string | undefined>()
      .int()
      .min(1_000)
      .max(30 * 86_400_000)
      .default(DEFAULT_RECONCILE_AFTER_MS),
  ),
  RECONCILE_EVERY_MS: optionalText.pipe(
    z.coerce
      .number<string | undefined>()
      .int()
      .min(1_000)
      .max(86_400_000)
      .default(DEFAULT_RECONCILE_EVERY_MS),
  ),
});

export interface KitConfig {
  mode: ServiceMode;
  integrationMode: IntegrationMode;
  port: number;
  appId: string | undefined;
  appSigningKey: Secret | undefined;
  appApiKey: Secret | undefined;
  providingBasicProfile: BasicProfileKey[];
  databaseUrl: Secret | undefined;
  serviceApiUrl: string | undefined;
  servicePublicKey: string | undefined;
  publicBaseUrl: string | undefined;
  marketApiToken: Secret | undefined;
  bnplCallbackUrl: string | undefined;
  webhookToleranceSeconds: number;
  /** How claim tokens' `scope_hash` is computed (`CLAIM_SCOPE_HASH`, default `per-scope`). */
  claimScopeHash: ClaimScopeHash;
  /**
   * Reverse proxies in front of the app (`TRUST_PROXY`, default 0): per-client limits key on the
   * `X-Forwarded-For` entry this many from the right instead of the proxy's address.
   */
  trustProxyHops: number;
  /**
   * How long one attempt of a call to the service may take (`SERVICE_TIMEOUT_MS`, default 8000); a
   * timed-out read is retried, so a call may take a few of these.
   */
  serviceTimeoutMs: number;
  /** Reconciliation of the worker (`RECONCILE_AFTER_MS`, `RECONCILE_EVERY_MS`). */
  reconcileAfterMs: number;
  reconcileEveryMs: number;
}

export interface LoadConfigOptions {
  integrationMode: IntegrationMode;
}

/** Variables production cannot run without, per integration mode. */
function productionRequired(mode: IntegrationMode): (keyof z.input<typeof envSchema>)[] {
  const basic: (keyof z.input<typeof envSchema>)[] = [
    'APP_ID',
    'APP_API_KEY',
    'SERVICE_API_URL',
    'PUBLIC_BASE_URL',
    'MARKET_API_TOKEN',
    'BNPL_CALLBACK_URL',
  ];
  return mode === 'data-sharing' ? [...basic, 'APP_SIGNING_KEY'] : basic;
}

/**
 * Reads configuration from an environment map. Throws one `misconfigured` KitError listing every
 * problem. In sandbox mode missing keys are allowed (the reference servers generate them); in
 * production they are refused, and so is anything that would run against the embedded sandbox.
 */
export function loadConfig(env: Record<string, string | undefined>, options: LoadConfigOptions): KitConfig {
  const parsed = envSchema.safeParse(env);
  const errors: FieldIssue[] = parsed.success ? [] : issuesOf(parsed.error);
  if (parsed.success && parsed.data.MODE === 'production') {
    for (const name of productionRequired(options.integrationMode)) {
      if (parsed.data[name] === undefined) errors.push({ path: name, message: 'is required in production' });
    }
    if (parsed.data.PUBLIC_BASE_URL && !parsed.data.PUBLIC_BASE_URL.startsWith('https://')) {
      errors.push({
        path: 'PUBLIC_BASE_URL',
        message: 'must be https in production (webhooks are signed for it)',
      });
    }
    const token = parsed.data.MARKET_API_TOKEN?.reveal();
    if (token !== undefined && token.length < 32) {
      errors.push({ path: 'MARKET_API_TOKEN', message: 'must be at least 32 characters in production' });
    }
  }
  if (errors.length > 0 || !parsed.success) {
    const list = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    throw new KitError('misconfigured', `Invalid configuration: ${list}`, { errors });
  }
  const e = parsed.data;
  return {
    mode: e.MODE,
    integrationMode: options.integrationMode,
    port: e.PORT,
    appId: e.APP_ID,
    appSigningKey: e.APP_SIGNING_KEY,
    appApiKey: e.APP_API_KEY,
    providingBasicProfile: e.APP_PROVIDING_BASIC_PROFILE,
    databaseUrl: e.DATABASE_URL,
    serviceApiUrl: e.SERVICE_API_URL,
    servicePublicKey: e.SERVICE_PUBLIC_KEY,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    marketApiToken: e.MARKET_API_TOKEN,
    bnplCallbackUrl: e.BNPL_CALLBACK_URL,
    webhookToleranceSeconds: e.WEBHOOK_TOLERANCE_SECONDS,
    claimScopeHash: e.CLAIM_SCOPE_HASH,
    trustProxyHops: e.TRUST_PROXY,
    serviceTimeoutMs: e.SERVICE_TIMEOUT_MS,
    reconcileAfterMs: e.RECONCILE_AFTER_MS,
    reconcileEveryMs: e.RECONCILE_EVERY_MS,
  };
}

/** A printable copy of the configuration; secrets stay `[redacted]` through any serializer. */
export function describeConfig(config: KitConfig): Record<string, unknown> {
  return JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
}
