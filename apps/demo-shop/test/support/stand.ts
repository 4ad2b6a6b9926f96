/**
 * A whole demo on one listening port, for the shop's tests: the embedded sandbox under
 * `/sandbox-service`, the market (`createMarket` + the memory store) under `/v1`, and the demo shop
 * at the root, wired the way a reference server wires them. Webhooks travel over real HTTP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildClaimObject,
  createMarket,
  createServiceClient,
  type MarketHooks,
  silentLogger,
} from '@bnpl-kit/core';
import { createNodeListener } from '@bnpl-kit/core/node';
import { createMemoryStore, generateKeyPair, type MemoryStore } from '@bnpl-kit/core/testing';
import { createSandbox, createSandboxFetch, type Sandbox } from '@bnpl-kit/sandbox';
import { createDemoShopHandler, type DemoShopHandler, type DemoUser } from '../../src/index.js';

export interface Stand {
  url: string;
  sandbox: Sandbox;
  store: MemoryStore;
  shop: DemoShopHandler;
  users: DemoUser[];
  /** The market's API token (`MARKET_API_TOKEN`). */
  marketToken: string;
  close(): Promise<void>;
}

const ORG = 'demo-org';
const SERVICE_PATH = '/sandbox-service';

export async function startStand(mode: 'basic' | 'data-sharing'): Promise<Stand> {
  let handler: ((request: Request) => Promise<Response>) | undefined;
  const server = createServer(createNodeListener((request) => handler!(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const dataSharing = mode === 'data-sharing';
  const orgKey = await generateKeyPair();
  const serviceKey = await generateKeyPair();
  const apiKey = `sk_demo_${crypto.randomUUID()}`;
  const marketToken = `mkt_${crypto.randomUUID()}`;
  const sandbox = createSandbox({
    signingKey: serviceKey.privateKeyPem,
    organizations: [
      {
        id: ORG,
        name: 'Demo Shop',
        apiKeys: [apiKey],
        apiBaseUrl: url,
        webhookUrls: [`${url}/v1/webhook`],
        ...(dataSharing && {
          offerFilteringUrl: `${url}/v1/offers/filter`,
          publicKey: orgKey.publicKey,
          basicProfileKeys: ['name', 'email', 'phone'],
        }),
      },
    ],
  });
  const users: (DemoUser & { profile: Record<string, unknown> })[] = [
    {
      id: 'user-an',
      sessionToken: `sess_${crypto.randomUUID()}`,
      name: 'Nguyễn Văn An',
      firstName: 'An',
      lastName: 'Nguyễn Văn',
      email: 'an@example.com',
      phoneNumber: '+84901234567',
      profile: {
        phone: '+84901234567',
        name: { given: 'An', family: 'Nguyễn Văn' },
        email: 'an@example.com',
      },
    },
    {
      id: 'user-binh',
      sessionToken: `sess_${crypto.randomUUID()}`,
      name: 'Trần Thị Bình',
      email: 'binh@example.com',
      profile: { email: 'binh@example.com' },
    },
  ];
  const findUser = (localId?: string, credifyId?: string) => {
    const user = users.find((u) => u.id === localId) ?? users.find((u) => credifies.get(u.id) === credifyId);
    if (!user) throw new Error('no such user');
    return user;
  };
  const credifies = new Map<string, string>();
  const bearer = (request: Request) => /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const hooks: MarketHooks = {
    authenticateInternalAPIClient: async (request) =>
      bearer(request) === marketToken ? { id: 'shop' } : null,
    authenticateInternalUser: async (request) => {
      const user = users.find((u) => u.sessionToken === bearer(request));
      return user ? { id: user.id } : null;
    },
    getBNPLCallback: (order) => `${url}/?order_id=${encodeURIComponent(order.id)}`,
    fetchUserClaimObject: async ({ localId, credifyId }) =>
      buildClaimObject({
        organizationId: ORG,
        profile: findUser(localId, credifyId).profile,
        providingBasicProfile: 'name,email,phone',
      }),
    updateUserId: async ({ localId, credifyId }) => {
      credifies.set(localId, credifyId);
    },
    upsertCommitments: async () => {},
  };
  const store = createMemoryStore();
  const market = createMarket({
    config: {
      mode: 'sandbox',
      integrationMode: mode,
      appId: ORG,
      servicePublicKey: serviceKey.publicKey,
      publicBaseUrl: url,
      ...(dataSharing && { appSigningKey: orgKey.privateKeyPem }),
    },
    hooks,
    service: createServiceClient({
      baseUrl: `${url}${SERVICE_PATH}`,
      apiKey,
      fetch: createSandboxFetch(sandbox, { basePath: SERVICE_PATH }),
    }),
    store,
    logger: silentLogger,
  });
  const shop = createDemoShopHandler({
    market,
    marketApiToken: marketToken,
    mode,
    serviceUrl: SERVICE_PATH,
    apiKey,
    appName: 'Demo Shop',
    marketId: ORG,
    demoUsers: users.map(({ profile: _, ...user }) => user),
    orderStatus: store,
  });
  handler = async (request) => {
    const path = new URL(request.url).pathname;
    if (path === SERVICE_PATH || path.startsWith(`${SERVICE_PATH}/`)) {
      return sandbox.handle(request, { basePath: SERVICE_PATH });
    }
    if (market.ownsPath(path)) return market.handle(request);
    return shop.handle(request);
  };
  return {
    url,
    sandbox,
    store,
    shop,
    users,
    marketToken,
    async close() {
      sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
