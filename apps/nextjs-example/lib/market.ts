/**
 * The market, built once per server process from the environment (`loadConfig`, the same
 * variables as every reference server). Swap `createMemoryStore()` for `@bnpl-kit/store`'s
 * PostgreSQL store in production.
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
// The in-memory store keeps this example self-contained; `createMarket` refuses it in production.
import { createMemoryStore } from '@bnpl-kit/core/testing';

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
  const sessions = new Map<string, string>(); // session token → user ID: your session store
  return createMarket({
    config,
    // A route handler sees no socket: the client is the address your proxy appends to
    // X-Forwarded-For (Next only sets the header when it is absent, so never expose Next without a
    // proxy that appends). Offer filtering bounds introspection per client.
    clientKey: clientKeyFromForwardedFor({ trustedHops: 1 }),
    store: createMemoryStore(),
    hooks: {
      authenticateInternalAPIClient: bearerAuth(config.marketApiToken), // constant-time
      authenticateInternalUser: async (request) => {
        const id = sessions.get(bearerToken(request) ?? '');
        return id ? { id } : null;
      },
      getBNPLCallback: (order) => `${config.publicBaseUrl}/v1/bnpl/orders/${order.id}/done`,
      async handleWebhook() {
        // Runs inside the store transaction that records the event: throw to make the service retry.
      },
    },
  });
}
