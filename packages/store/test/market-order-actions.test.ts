/**
 * The kit's cancel and disburse endpoints on this store: one action per order at a time, so of a
 * cancel and a disburse sent together only one reaches the service and the other is a 409 (R-EP-06,
 * R-EP-08, R-STATE-06). The service holds the first call open while the second request is sent.
 */
import { createMarket, Secret, type ServiceClient, silentLogger } from '@bnpl-kit/core';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { backends, type TestDatabase } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

const PUBLIC_BASE = 'https://market.example.com';
const TOKEN = 'market-systems';
type Action = 'cancel' | 'disburse';

/** A service that answers each action call when the test releases it, and records which came. */
function holdingService() {
  const reached: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let firstReached!: () => void;
  const first = new Promise<void>((resolve) => {
    firstReached = resolve;
  });
  let secondReached!: () => void;
  const second = new Promise<void>((resolve) => {
    secondReached = resolve;
  });
  const act = (operation: string, status: string) => async (id: string) => {
    reached.push(operation);
    if (reached.length === 1) firstReached();
    else secondReached();
    await released;
    return {
      id,
      referenceId: 'r',
      totalAmount: { value: '1', currency: 'VND' },
      orderLines: [],
      orderStatus: status,
    } as Awaited<ReturnType<ServiceClient['cancelOrder']>>;
  };
  const service = new Proxy({} as ServiceClient, {
    get: (_, name) =>
      name === 'cancelOrder'
        ? act('cancelOrder', 'CANCELED')
        : name === 'disburseOrder'
          ? act('disburseOrder', 'PAID')
          : () => Promise.reject(new Error(`no ${String(name)} in this test`)),
  });
  return { service, reached, release, first, second };
}

describe.each(backends)('cancel and disburse of one order on $name', (backend) => {
  let db: TestDatabase;
  let store: Store;
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;
  beforeAll(async () => {
    db = await backend.open();
    store = db.store;
    keys = await generateKeyPair();
  });
  afterAll(() => db.close());

  function market(service: ServiceClient) {
    return createMarket({
      config: {
        mode: 'sandbox',
        integrationMode: 'data-sharing',
        appId: 'test',
        appSigningKey: new Secret(keys.privateKeyPem),
        publicBaseUrl: PUBLIC_BASE,
        servicePublicKey: keys.publicKey,
      },
      hooks: {
        authenticateInternalAPIClient: async (request) =>
          request.headers.get('authorization') === `Bearer ${TOKEN}` ? { id: 'systems' } : null,
        authenticateInternalUser: async () => null,
        fetchUserClaimObject: async () => ({}),
        updateUserId: async () => {},
        upsertCommitments: async () => {},
        getBNPLCallback: () => `${PUBLIC_BASE}/done`,
      },
      service,
      store,
      logger: silentLogger,
    });
  }

  it.each([
    ['cancel', 'disburse'],
    ['disburse', 'cancel'],
  ] as const)(
    '%s first: only it reaches the service, the %s is a 409',
    async (first: Action, second: Action) => {
      const order = newOrder({ status: 'APPROVED' });
      await store.insertOrder(order);
      const held = holdingService();
      const m = market(held.service);
      const send = (action: Action) =>
        m.handle(
          new Request(`${PUBLIC_BASE}/v1/orders/${order.id}/${action}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}` },
          }),
        );
      const winner = send(first);
      await held.first;
      const loser = send(second);
      // Released once the second request reached the service (the bug) or had time to read the order.
      await Promise.race([store.findOrderById(order.id), held.second]);
      held.release();
      const [won, lost] = await Promise.all([winner, loser]);
      expect(won.status).toBe(202);
      expect(lost.status).toBe(409);
      expect(await lost.json()).toMatchObject({ code: 'invalid_transition' });
      expect(held.reached).toEqual([`${first}Order`]);
      expect((await store.findOrderById(order.id))?.status).toBe(first === 'cancel' ? 'CANCELED' : 'PAID');
    },
  );
});
