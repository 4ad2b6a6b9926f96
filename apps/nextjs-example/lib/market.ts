/**
 * The market, built once per server process from the environment (`loadConfig`, the same
 * variables as every reference server). Swap `createMemoryStore()` for `@bnpl-kit/store`'s
 * PostgreSQL store in production.
 *
 * The repository's tests run this app in-process (Next's programmatic server) with markets of
 * their own; they answer through the function at `UNDER_TEST`. Without it, nothing changes.
 */
import {
  createMarket,
  createMemoryStore,
  createServiceClient,
  loadConfig,
  type Market,
} from '@bnpl-kit/core';

const UNDER_TEST = Symbol.for('bnpl-kit.nextjs-example.market-under-test');
let fromEnvironment: Market | undefined;

export function market(): Market {
  const underTest = (globalThis as { [UNDER_TEST]?: () => Market | undefined })[UNDER_TEST]?.();
  if (underTest) return underTest;
  // Built on first request, not at import: `next build` imports route modules without the env.
  fromEnvironment ??= marketFromEnvironment();
  return fromEnvironment;
}

function marketFromEnvironment(): Market {
  const config = loadConfig(process.env, { integrationMode: 'basic' });
  const bearer = (request: Request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
  const sessions = new Map<string, string>(); // session token → user ID: your session store
  return createMarket({
    config,
    service: createServiceClient({ baseUrl: config.serviceApiUrl!, apiKey: config.appApiKey! }),
    store: createMemoryStore(),
    hooks: {
      authenticateInternalAPIClient: async (request) =>
        bearer(request) === config.marketApiToken?.reveal() ? { id: 'backend' } : null,
      authenticateInternalUser: async (request) => {
        const id = sessions.get(bearer(request));
        return id ? { id } : null;
      },
      getBNPLCallback: (order) => `${config.publicBaseUrl}/v1/bnpl/orders/${order.id}/done`,
      async handleWebhook() {
        // Runs inside the store transaction that records the event: throw to make the service retry.
      },
    },
  });
}
