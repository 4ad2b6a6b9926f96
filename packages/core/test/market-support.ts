/**
 * Shared pieces of the market tests: a small in-memory fake of the `ServiceClient` (with a call log
 * as the spy), hooks that authenticate with fixed bearer tokens, and a `makeMarket` that wires them
 * to the memory store.
 */
import { KitError } from '../src/errors.js';
import { bearerToken } from '../src/market/bearer-auth.js';
import {
  createMarket,
  createMarketWith,
  type Market,
  type MarketHandlers,
} from '../src/market/create-market.js';
import type { MarketHooks, WebhookHookInput } from '../src/market/hooks.js';
import { createMemoryStore, type MemoryStore } from '../src/market/memory-store.js';
import type { CreateMarketOptions, MarketConfig } from '../src/market/options.js';
import type { MarketTransaction } from '../src/market/store.js';
import { Secret } from '../src/models/secret.js';
import type { OrderStatus } from '../src/models/status.js';
import { silentLogger } from '../src/observability/logger.js';
import type { CallOptions, ServiceClient, ServiceOrder, TokenIntrospection } from '../src/service/types.js';
import { generateKeyPair, signWebhook } from '../src/testing.js';

export const API_TOKEN = 'market-systems-token';
export const USER_TOKEN = 'user-token-of-u1';
export const ORIGIN = 'https://market.example.com';

export interface ServiceCall {
  op: string;
  args: unknown[];
  options: CallOptions | undefined;
}

export interface FakeService extends ServiceClient {
  calls: ServiceCall[];
  orders: Map<string, ServiceOrder>;
  tokens: Map<string, TokenIntrospection>;
  publicKey: string;
  setStatus(id: string, status: OrderStatus): void;
  callsOf(op: string): ServiceCall[];
}

export function createFakeService(publicKey = ''): FakeService {
  const orders = new Map<string, ServiceOrder>();
  const byKey = new Map<string, ServiceOrder>();
  const calls: ServiceCall[] = [];
  let next = 1;
  const record = (op: string, options: CallOptions | undefined, ...args: unknown[]) =>
    calls.push({ op, args, options });
  const need = (id: string) => {
    const order = orders.get(id);
    if (!order) throw new KitError('order_not_found', `service has no order ${id}`);
    return order;
  };
  const service: FakeService = {
    calls,
    orders,
    tokens: new Map(),
    publicKey,
    setStatus(id, status) {
      need(id).orderStatus = status;
    },
    callsOf: (op) => calls.filter((c) => c.op === op),
    async createOrder(input, options) {
      record('createOrder', options, input);
      const key = options?.idempotencyKey;
      const replay = key === undefined ? undefined : byKey.get(key);
      if (replay) return structuredClone(replay);
      const order: ServiceOrder = {
        id: `svc_${next++}`,
        referenceId: input.referenceId,
        totalAmount: input.totalAmount,
        orderLines: input.orderLines,
        orderStatus: 'PENDING',
      };
      orders.set(order.id, order);
      if (key !== undefined) byKey.set(key, order);
      return structuredClone(order);
    },
    async getOrder(id, options) {
      record('getOrder', options, id);
      return structuredClone(need(id));
    },
    async cancelOrder(id, options) {
      record('cancelOrder', options, id);
      const order = need(id);
      order.orderStatus = 'CANCELED';
      return structuredClone(order);
    },
    async disburseOrder(id, input, options) {
      record('disburseOrder', options, id, input);
      const order = need(id);
      order.orderStatus = 'PAID';
      return structuredClone(order);
    },
    async pushClaimTokens(credifyId, claimTokens, options) {
      record('pushClaimTokens', options, credifyId, claimTokens);
    },
    async getSigningPublicKey(entityId, options) {
      record('getSigningPublicKey', options, entityId);
      return service.publicKey;
    },
    async introspectToken(token, scope, options) {
      record('introspectToken', options, token, scope);
      return service.tokens.get(token) ?? { active: false, scope: '' };
    },
    async checkAvailability(input, options) {
      record('checkAvailability', options, input);
      return { offers: [], credifyId: undefined };
    },
  };
  return service;
}

/** Bearer-token auth, as the reference servers do it. */
export function bearer(request: Request): string | undefined {
  return bearerToken(request);
}

export function testHooks(
  overrides: Partial<MarketHooks> = {},
): MarketHooks & { webhooks: WebhookHookInput[] } {
  const webhooks: WebhookHookInput[] = [];
  return {
    webhooks,
    async authenticateInternalAPIClient(request) {
      return bearer(request) === API_TOKEN ? { id: 'market-backend' } : null;
    },
    async authenticateInternalUser(request) {
      return bearer(request) === USER_TOKEN ? { id: 'u1' } : null;
    },
    async fetchUserClaimObject({ includeCommitments }) {
      const claims: Record<string, Record<string, unknown>> = {
        phone: { phone_number: '+84901234567' },
        'org-1:loyalty': { 'org-1:tier': 'gold', 'org-1:points': '1200' },
      };
      if (includeCommitments) {
        claims.phone!.phone_commitment = 'c'.repeat(43);
        claims['org-1:loyalty']!['org-1:loyalty:commitment'] = 'd'.repeat(43);
      }
      return claims as never;
    },
    async updateUserId() {},
    async upsertCommitments() {},
    async handleWebhook(input) {
      webhooks.push({ ...input, tx: undefined as never });
    },
    getBNPLCallback: (order) => `${ORIGIN}/checkout/done?order=${encodeURIComponent(order.id)}`,
    ...overrides,
  };
}

export interface TestMarket {
  market: Market;
  store: MemoryStore;
  service: FakeService;
  hooks: ReturnType<typeof testHooks>;
  /** Verifies the claim tokens the market signs. */
  appPublicKey: string;
  /** The seed the fake service signs webhooks with. */
  serviceKeys: Awaited<ReturnType<typeof generateKeyPair>>;
}

export interface MakeMarketOptions
  extends Partial<Omit<CreateMarketOptions<MarketTransaction>, 'config' | 'hooks'>> {
  config?: Partial<MarketConfig>;
  hooks?: Partial<MarketHooks>;
  /** Route functions in place of the kit's (route-table guarantees); the kit's when absent. */
  handlers?: MarketHandlers;
}

export async function makeMarket(options: MakeMarketOptions = {}): Promise<TestMarket> {
  const serviceKeys = await generateKeyPair();
  const appKeys = await generateKeyPair();
  const service = (options.service as FakeService | undefined) ?? createFakeService(serviceKeys.publicKey);
  const store = (options.store as MemoryStore | undefined) ?? createMemoryStore();
  const hooks = testHooks(options.hooks);
  const { config, hooks: _h, handlers, ...rest } = options;
  const create = handlers
    ? (o: CreateMarketOptions<MarketTransaction>) => createMarketWith(o, handlers)
    : createMarket;
  const market = create({
    logger: silentLogger,
    ...rest,
    config: {
      mode: 'sandbox',
      integrationMode: 'data-sharing',
      appId: 'org-1',
      appSigningKey: new Secret(appKeys.privateKeyPem),
      servicePublicKey: serviceKeys.publicKey,
      publicBaseUrl: ORIGIN,
      ...config,
    },
    hooks,
    service,
    store,
  });
  return { market, store, service, hooks, appPublicKey: appKeys.publicKey, serviceKeys };
}

export function call(
  market: Market,
  path: string,
  init: RequestInit & { token?: string } = {},
): Promise<Response> {
  const { token, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  if (typeof rest.body === 'string' && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  return market.handle(new Request(`${ORIGIN}${path}`, { ...rest, headers }));
}

export async function insertOrder(
  store: MemoryStore,
  id: string,
  status: OrderStatus,
  referenceId = `ref-${id}`,
) {
  return store.insertOrder({
    id,
    referenceId,
    totalAmount: { value: '300000', currency: 'VND' },
    orderLines: [],
    status,
    requestFingerprint: 'fp',
  });
}

/** Signs `body` as the fake service would and delivers it to the market's webhook endpoint. */
export async function deliverWebhook(
  t: TestMarket,
  body: unknown,
  options: { eventId?: string; url?: string } = {},
) {
  const signed = await signWebhook({
    url: options.url ?? t.market.webhookUrl,
    body: body as object,
    signingKey: t.serviceKeys.privateKeyPem,
    ...(options.eventId ? { eventId: options.eventId } : {}),
  });
  const response = await t.market.handle(
    new Request(`${ORIGIN}/v1/webhook`, {
      method: 'POST',
      headers: signed.headers,
      body: signed.body as BodyInit,
    }),
  );
  return { response, eventId: signed.headers['X-Event-Id']!, json: await response.json() };
}
