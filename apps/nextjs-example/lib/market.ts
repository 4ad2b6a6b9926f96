/**
 * The market, its store and its worker, built once per server process from the environment
 * (`loadConfig`, the same variables as every reference server; `DATABASE_URL` or `DATA_DIR` for
 * the store). Nothing is built at import: `next build` imports route modules without your
 * environment. The first request (or `/readyz` poll) starts the build and memoises its promise;
 * every request awaits that same promise, so the store opens and migrates once. A failed start
 * is forgotten, so the next request tries again.
 *
 * The repository's tests run this app in-process (Next's programmatic server) with markets of
 * their own; they answer through the function at `UNDER_TEST`. Without it, nothing changes.
 */
import {
  bearerAuth,
  bearerToken,
  clientKeyFromForwardedFor,
  createMarket,
  loadConfig,
  type Market,
} from '@bnpl-kit/core';
import { openStore, type Store } from '@bnpl-kit/store';
import { createDrain, createMarketWorker, type JobWorker } from '@bnpl-kit/store/worker';
import { processWide } from './process-wide';
import { requestsDrained } from './requests';

export interface MarketRuntime {
  market: Market;
  store: Store;
  /** Absent without SERVICE_API_URL and APP_API_KEY (the worker calls the service). */
  worker: JobWorker | undefined;
}

const UNDER_TEST = Symbol.for('bnpl-kit.nextjs-example.market-under-test');
/** The start in progress or done; shared by every route of this process (lib/process-wide.ts). */
const state = processWide('runtime', () => ({ starting: undefined as Promise<MarketRuntime> | undefined }));

export async function market(): Promise<Market> {
  const underTest = (globalThis as { [UNDER_TEST]?: () => Market | undefined })[UNDER_TEST]?.();
  if (underTest) return underTest;
  return (await runtime()).market;
}

/** The store, market and worker; started by the first caller, the same promise for every other. */
export function runtime(): Promise<MarketRuntime> {
  state.starting ??= startRuntime().catch((error: unknown) => {
    state.starting = undefined; // the next request tries again (e.g. the database was not up yet)
    throw error;
  });
  return state.starting;
}

/**
 * SIGTERM's drain (instrumentation.ts): readiness answers 503 at once; after the grace period the
 * requests in flight finish, then the worker stops and the store closes. Nothing to stop when no
 * request ever started the runtime.
 */
export const drain = processWide('drain', () =>
  createDrain([
    ['requests', requestsDrained],
    ['worker', async () => (await started())?.worker?.stop()],
    ['store', async () => (await started())?.store.close()],
  ]),
);

async function started(): Promise<MarketRuntime | undefined> {
  return state.starting?.catch(() => undefined);
}

async function startRuntime(): Promise<MarketRuntime> {
  const config = loadConfig(process.env, { integrationMode: 'basic' });
  const store = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR });
  try {
    const worker =
      config.serviceApiUrl && config.appApiKey ? createMarketWorker({ store, config }) : undefined;
    const market = marketOn(store, config);
    worker?.start();
    return { market, store, worker };
  } catch (error) {
    await store.close(); // a retry opens it again (PGlite allows one open store per directory)
    throw error;
  }
}

function marketOn(store: Store, config: ReturnType<typeof loadConfig>): Market {
  const sessions = new Map<string, string>(); // session token → user ID: your session store
  // Where the buyer lands after the BNPL flow (BNPL_CALLBACK_URL; certify checks the redirect).
  const callbackUrl = config.bnplCallbackUrl ?? 'http://localhost:3000/checkout/done';
  return createMarket({
    config,
    // A route handler sees no socket: the client is the address your proxy appends to
    // X-Forwarded-For (Next only sets the header when it is absent, so never expose Next without a
    // proxy that appends). Offer filtering bounds introspection per client.
    clientKey: clientKeyFromForwardedFor({ trustedHops: 1 }),
    store,
    hooks: {
      authenticateInternalAPIClient: bearerAuth(config.marketApiToken), // constant-time
      authenticateInternalUser: async (request) => {
        const id = sessions.get(bearerToken(request) ?? '');
        return id ? { id } : null;
      },
      getBNPLCallback: (order) => `${callbackUrl}?order_id=${encodeURIComponent(order.id)}`,
      async handleWebhook() {
        // Runs inside the store transaction that records the event: throw to make the service retry.
      },
    },
  });
}
