/**
 * The markets of the adapter behaviour suite (contract-tests/test/support/adapter-behaviour-suite.ts),
 * built from a plain JSON spec with no Node built-ins: in the test process for the framework
 * adapters, inside Bun, Deno or workerd for the runtimes (tools/runtimes serves them over HTTP).
 * What the suite inspects — the stored order status, the events the webhook hook got, the
 * commitments kept — is on the returned object.
 */
import {
  bearerToken,
  type ClaimObject,
  createMarket,
  createServiceClient,
  type KnownWebhookEvent,
  type Market,
  Secret,
  silentLogger,
} from '@bnpl-kit/core';
import { createMemoryStore, type MemoryStore } from '@bnpl-kit/core/testing';

export interface BehaviourMarketSpec {
  orgId: string;
  /** Where the service delivers this market's webhooks (the signed URL's base). */
  publicBaseUrl: string;
  serviceUrl: string;
  /** The systems' bearer token and the users' session tokens (token → user ID). */
  apiToken: string;
  userTokens: Record<string, string>;
  /** A data-sharing market signs claims with this PKCS#8 PEM. */
  appSigningKey?: string;
  /**
   * A basic-mode market verifying with this public key against a clock the suite sets (replays
   * the shared vectors as they are), instead of a data-sharing one.
   */
  replay?: { servicePublicKey: string; now: number };
}

export interface BehaviourMarket {
  market: Market;
  store: MemoryStore;
  events: KnownWebhookEvent[];
  /** Commitments kept per local user ID (`upsertCommitments`). */
  commitments: Map<string, Record<string, string>>;
  /** Moves a replay market's clock. */
  setNow(now: number): void;
}

const bearer = bearerToken;

export function createBehaviourMarket(spec: BehaviourMarketSpec): BehaviourMarket {
  const { orgId } = spec;
  const store = createMemoryStore();
  const events: KnownWebhookEvent[] = [];
  const commitments = new Map<string, Record<string, string>>();
  let now = spec.replay?.now ?? 0;
  const service = createServiceClient({ baseUrl: spec.serviceUrl, apiKey: `${orgId}-api-key`, retries: 0 });
  const handleWebhook = async ({ event }: { event: KnownWebhookEvent }) => {
    events.push(event);
  };
  const market = spec.replay
    ? createMarket({
        config: {
          mode: 'sandbox',
          integrationMode: 'basic',
          appId: orgId,
          publicBaseUrl: spec.publicBaseUrl,
          servicePublicKey: spec.replay.servicePublicKey,
        },
        hooks: {
          authenticateInternalAPIClient: async () => null,
          authenticateInternalUser: async () => null,
          getBNPLCallback: () => 'https://market.example.com/done',
          handleWebhook,
        },
        service,
        store,
        logger: silentLogger,
        now: () => now,
      })
    : createMarket({
        config: {
          mode: 'sandbox',
          integrationMode: 'data-sharing',
          appId: orgId,
          appSigningKey: new Secret(spec.appSigningKey ?? ''),
          publicBaseUrl: spec.publicBaseUrl,
        },
        service,
        store,
        logger: silentLogger,
        hooks: {
          authenticateInternalAPIClient: async (request) =>
            bearer(request) === spec.apiToken ? { id: 'backend' } : null,
          authenticateInternalUser: async (request) => {
            const id = spec.userTokens[bearer(request) ?? ''];
            return id ? { id } : null;
          },
          async fetchUserClaimObject({ localId, includeCommitments }) {
            const claims: ClaimObject = {
              phone: { phone_number: '+84901234567' },
              [`${orgId}:loyalty`]: { [`${orgId}:tier`]: 'gold' },
            };
            const kept = includeCommitments ? commitments.get(localId ?? '') : undefined;
            if (kept?.phone) claims.phone!.phone_commitment = kept.phone;
            const loyalty = kept?.[`${orgId}:loyalty`];
            if (loyalty) claims[`${orgId}:loyalty`]![`${orgId}:loyalty:commitment`] = loyalty;
            return claims;
          },
          async updateUserId() {},
          async upsertCommitments({ localId, commitments: fresh }) {
            commitments.set(localId, fresh);
          },
          handleWebhook,
          getBNPLCallback: (order) => `https://shop.example.com/bnpl/done/${order.id}`,
        },
      });
  return {
    market,
    store,
    events,
    commitments,
    setNow: (at) => {
      now = at;
    },
  };
}
