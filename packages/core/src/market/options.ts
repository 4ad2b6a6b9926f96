/**
 * What `createMarket` takes, its defaults, and the start-up check that refuses a market which could
 * not serve safely (no auth hooks, no webhook keys, no signing key in data-sharing mode). Every
 * problem is reported at once, like `loadConfig` does.
 */
import { type FieldIssue, KitError } from '../errors.js';
import type { KitConfig } from '../models/config.js';
import type { Secret } from '../models/secret.js';
import type { MarketLogger } from '../observability/logger.js';
import type { ServiceClient } from '../service/types.js';
import type { Keyring, PublicKeysInput } from '../signature/keyring.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TOLERANCE_SECONDS } from '../signature/message.js';
import type { MarketHooks, UnknownEventHandler } from './hooks.js';
import type { MarketStore, MarketTransaction } from './store.js';

/** The part of `KitConfig` the handler reads; a whole `KitConfig` fits. */
export interface MarketConfig {
  mode: KitConfig['mode'];
  integrationMode: KitConfig['integrationMode'];
  appId?: string | undefined;
  /** Signs claim tokens (data-sharing mode). */
  appSigningKey?: Secret | string | undefined;
  /** The service's webhook public key(s); when unset they are fetched from the service. */
  servicePublicKey?: string | undefined;
  /** The market's externally visible base URL: the webhook URL is this + prefix + webhook path. */
  publicBaseUrl?: string | undefined;
  webhookToleranceSeconds?: number | undefined;
  /** `scope_hash` of pushed claim tokens: `per-scope` (default) or the prior art's `all-scopes` (WIRE §7). */
  claimScopeHash?: KitConfig['claimScopeHash'] | undefined;
  /** Proxies in front of the app (`TRUST_PROXY`): without `clientKey`, limits key on X-Forwarded-For. */
  trustProxyHops?: number | undefined;
  /** `SERVICE_API_URL`: with `appApiKey`, the service client is built from it when `service` is not given. */
  serviceApiUrl?: string | undefined;
  /** `APP_API_KEY`. */
  appApiKey?: Secret | string | undefined;
  /** `SERVICE_TIMEOUT_MS`: each attempt of a call by the service client built from `serviceApiUrl`. */
  serviceTimeoutMs?: number | undefined;
}

/** Paths of the served endpoints. `prefix` is prepended to every other one. */
export interface MarketPaths {
  prefix: string;
  webhook: string;
  offerFilter: string;
  /** Must contain `:id`. */
  bnplRedirect: string;
}

export const DEFAULT_PATHS: MarketPaths = {
  prefix: '/v1',
  webhook: '/webhook',
  offerFilter: '/offers/filter',
  bnplRedirect: '/bnpl/orders/:id/redirect',
};

export interface MarketLimits {
  /** Largest request body accepted on any endpoint; default 256 KiB (WIRE §4). */
  maxBodyBytes: number;
  /** A hook that has not settled by then fails the request with a 500; default 15 s. */
  hookTimeoutMs: number;
  /**
   * Offer filtering: unknown bearer tokens one client may have introspected at the service at
   * once (default 20), then this many more per second (default 1). Past it: 429 with Retry-After.
   * A token that turns out active does not count.
   */
  introspectionBurst: number;
  introspectionPerSecond: number;
  /** Offer filtering: how long a token the service called inactive is answered 401 from memory. */
  inactiveTokenTtlMs: number;
}

export const DEFAULT_LIMITS: MarketLimits = {
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  hookTimeoutMs: 15_000,
  introspectionBurst: 20,
  introspectionPerSecond: 1,
  inactiveTokenTtlMs: 10_000,
};

export interface CreateMarketOptions<Tx extends MarketTransaction = MarketTransaction> {
  /** `loadConfig(process.env, …)` fits as is. */
  config: MarketConfig;
  hooks: MarketHooks<Tx>;
  /** Overrides the client built from `config.serviceApiUrl` and `config.appApiKey`. */
  service?: ServiceClient;
  /** The webhook verification keys; overrides `config.servicePublicKey`. */
  webhookKeys?: Keyring | PublicKeysInput;
  store: MarketStore<Tx>;
  logger?: MarketLogger;
  /** The clock (webhook timestamp window, introspection cache); tests inject one. */
  now?: () => Date | number;
  paths?: Partial<MarketPaths>;
  limits?: Partial<MarketLimits>;
  onUnknownEvent?: UnknownEventHandler<Tx>;
  /**
   * What `GET /demo-user` answers in sandbox mode: a fixed object, or a function read on every
   * request, so the answer shows the demo users as stored now (certify reads their session token
   * and the claims with the last push's commitments from it). A thrown `KitError` is answered as
   * its problem; anything else is a 500.
   */
  demoUser?: Record<string, unknown> | (() => Promise<Record<string, unknown>> | Record<string, unknown>);
  /**
   * Who is calling, for the per-client bounds (offer filtering's unknown tokens). Default: the
   * peer address the Node bridge or the Hono adapter saw. Behind a reverse proxy every request has
   * the proxy's address: return the client address the proxy forwards (from a header only your
   * proxy can set).
   */
  clientKey?: (request: Request) => string | undefined;
}

export const DEFAULT_DEMO_USER = {
  id: 'demo-user-1',
  name: 'Nguyễn Văn Demo',
  email: 'demo@example.com',
  phone: '+84900000001',
  credify_id: null,
} as const;

function checkPath(name: string, value: string, problems: FieldIssue[], allowEmpty = false): void {
  if (value === '' && allowEmpty) return;
  if (!value.startsWith('/') || (value.length > 1 && value.endsWith('/')) || /[?#\s]/.test(value)) {
    problems.push({
      path: `paths.${name}`,
      message: 'must start with "/" and have no trailing "/", query or spaces',
    });
  }
}

/** Throws one `misconfigured` KitError listing every reason this market cannot start. */
export function checkMarketOptions(
  options: CreateMarketOptions<MarketTransaction>,
  paths: MarketPaths,
): void {
  const problems: FieldIssue[] = [];
  const { config, hooks } = options;
  const need = (ok: unknown, path: string, message: string) => {
    if (!ok) problems.push({ path, message });
  };
  const isFn = (f: unknown) => typeof f === 'function';
  need(
    config?.mode === 'sandbox' || config?.mode === 'production',
    'config.mode',
    'must be "sandbox" or "production"',
  );
  const dataSharing = config?.integrationMode === 'data-sharing';
  need(
    dataSharing || config?.integrationMode === 'basic',
    'config.integrationMode',
    'must be "basic" or "data-sharing"',
  );
  const authMessage = 'is required: there is no permissive default for authentication';
  need(isFn(hooks?.authenticateInternalAPIClient), 'hooks.authenticateInternalAPIClient', authMessage);
  need(isFn(hooks?.authenticateInternalUser), 'hooks.authenticateInternalUser', authMessage);
  need(isFn(hooks?.getBNPLCallback), 'hooks.getBNPLCallback', 'is required for the BNPL redirect');
  if (dataSharing) {
    for (const name of ['fetchUserClaimObject', 'updateUserId', 'upsertCommitments'] as const) {
      need(isFn(hooks?.[name]), `hooks.${name}`, 'is required in data-sharing mode');
    }
    need(config.appId, 'config.appId', 'is required in data-sharing mode (claim tokens are issued by it)');
    need(
      config.appSigningKey,
      'config.appSigningKey',
      'is required in data-sharing mode (it signs claim tokens)',
    );
  }
  need(
    options.service || (config?.serviceApiUrl && config.appApiKey),
    'service',
    'is required: pass one, or set config.serviceApiUrl and config.appApiKey (SERVICE_API_URL, APP_API_KEY) to build it',
  );
  need(options.store, 'store', 'is required');
  need(
    !(config?.mode === 'production' && options.store?.durable === false),
    'store',
    'is not durable (orders and processed webhook events would be lost on restart): production needs a database store such as @bnpl-kit/store',
  );
  const base = config?.publicBaseUrl;
  need(
    base && /^https?:\/\//.test(base) && URL.canParse(base),
    'config.publicBaseUrl',
    'must be the absolute http(s) URL the service sends webhooks to (the signed URL is built from it)',
  );
  need(
    options.webhookKeys || config?.servicePublicKey || config?.appId,
    'config.servicePublicKey',
    'is required when config.appId is unset (the key cannot be fetched from the service without it)',
  );
  const tolerance = config?.webhookToleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  need(
    Number.isInteger(tolerance) && tolerance > 0,
    'config.webhookToleranceSeconds',
    'must be a positive integer',
  );
  checkPath('prefix', paths.prefix, problems, true);
  checkPath('webhook', paths.webhook, problems);
  checkPath('offerFilter', paths.offerFilter, problems);
  checkPath('bnplRedirect', paths.bnplRedirect, problems);
  need(paths.bnplRedirect.split('/').includes(':id'), 'paths.bnplRedirect', 'must contain an ":id" segment');
  const limits = options.limits ?? {};
  for (const name of ['maxBodyBytes', 'hookTimeoutMs'] as const) {
    const value = limits[name];
    need(
      value === undefined || (Number.isInteger(value) && value > 0),
      `limits.${name}`,
      'must be a positive integer',
    );
  }
  if (problems.length > 0) {
    const list = problems.map((p) => `${p.path} ${p.message}`).join('; ');
    throw new KitError('misconfigured', `createMarket: ${list}`, { errors: problems });
  }
}
