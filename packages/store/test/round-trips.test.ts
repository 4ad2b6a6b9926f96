/**
 * How many statements (round trips to PostgreSQL) the kit's hot paths cost, counted, so that a
 * change adding one fails here instead of showing up later as a slower benchmark. Counted at the
 * executor (every statement, BEGIN and COMMIT, on both backends) and, on PostgreSQL, also at the
 * driver: every `pg` Client.query is one exchange with the server, so nothing can hide below.
 *
 * The floor each path is held to:
 * - webhook, no `handleWebhook`: one statement, no transaction (event, status move, history);
 * - webhook with `handleWebhook`: BEGIN, that same statement (reading the order whole for the
 *   hook), the hook, COMMIT; a duplicate stops after the statement. On PostgreSQL BEGIN travels
 *   with the statement: two exchanges with the server;
 * - order creation: the reference lookup (a replay must not call the service), the service call,
 *   one insert of the order and its history row.
 */
import {
  type Amount,
  createMarket,
  type MarketHooks,
  type ServiceClient,
  silentLogger,
} from '@bnpl-kit/core';
import { generateKeyPair, signWebhook, wireOrder } from '@bnpl-kit/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgExecutor } from '../src/executor/pg.js';
import { createPgliteExecutor } from '../src/executor/pglite.js';
import { preparedName } from '../src/executor/prepared.js';
import type { SqlExecutor, TransactionClient } from '../src/executor/types.js';
import { DEFAULT_JOB_RETRY } from '../src/repositories/jobs/backoff.js';
import { createStore, type Store, type StoreTransaction } from '../src/store.js';
import { randomSchemaName, TEST_DATABASE_URL, unique, withAdminClient } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

const PUBLIC_BASE = 'https://market.example.com';
const API_TOKEN = 'round-trips-token';

/** A statement's name in the log: its prepared-statement name, else its first words. */
function label(sql: string): string {
  return preparedName(sql) ?? sql.trim().split(/\s+/).slice(0, 4).join(' ');
}

/** Wraps an executor so that every statement it runs, BEGIN and COMMIT included, is logged. */
function counting(executor: SqlExecutor): { executor: SqlExecutor; log: string[] } {
  const log: string[] = [];
  const wrapTx = (tx: TransactionClient): TransactionClient => ({
    query: (sql, params) => {
      log.push(label(sql));
      return tx.query(sql, params);
    },
    exec: (sql) => {
      log.push(label(sql));
      return tx.exec(sql);
    },
  });
  return {
    log,
    executor: {
      dialect: executor.dialect,
      location: executor.location,
      query: (sql, params) => {
        log.push(label(sql));
        return executor.query(sql, params);
      },
      transaction: (work) => {
        log.push('BEGIN');
        return executor
          .transaction((tx) => work(wrapTx(tx)))
          .then(
            (result) => {
              log.push('COMMIT');
              return result;
            },
            (error: unknown) => {
              log.push('ROLLBACK');
              throw error;
            },
          );
      },
      close: () => executor.close(),
    },
  };
}

interface Backend {
  name: 'pglite' | 'postgres';
  open(): Promise<{ executor: SqlExecutor; schema?: string; drop(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'pglite',
    open: async () => ({ executor: await createPgliteExecutor({ memory: true }), drop: async () => {} }),
  },
  ...(TEST_DATABASE_URL === undefined
    ? []
    : [
        {
          name: 'postgres' as const,
          async open() {
            const schema = randomSchemaName();
            const executor = createPgExecutor({
              connectionString: TEST_DATABASE_URL as string,
              schema,
              logger: silentLogger,
            });
            return {
              executor,
              schema,
              drop: async () => {
                await withAdminClient((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
              },
            };
          },
        },
      ]),
];

describe.each(backends)('statements per request on $name', (backend) => {
  let store: Store;
  let log: string[];
  let drop: () => Promise<void>;
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;

  beforeAll(async () => {
    const opened = await backend.open();
    drop = opened.drop;
    const counted = counting(opened.executor);
    log = counted.log;
    store = createStore({
      executor: counted.executor,
      logger: silentLogger,
      schema: opened.schema,
      jobs: { now: undefined, retry: DEFAULT_JOB_RETRY },
    });
    await store.migrate();
    keys = await generateKeyPair();
  });
  afterAll(async () => {
    await store.close();
    await drop();
  });

  const service = {
    createOrder: async (input: { referenceId: string; totalAmount: Amount }) => ({
      id: unique('svc-order'),
      referenceId: input.referenceId,
      totalAmount: input.totalAmount,
      orderLines: [],
      orderStatus: 'PENDING',
    }),
  } as unknown as ServiceClient;

  function market(handleWebhook?: MarketHooks<StoreTransaction>['handleWebhook']) {
    return createMarket({
      config: {
        mode: 'sandbox',
        integrationMode: 'basic',
        appId: 'test',
        publicBaseUrl: PUBLIC_BASE,
        servicePublicKey: keys.publicKey,
      },
      hooks: {
        authenticateInternalAPIClient: async (request) =>
          request.headers.get('authorization') === `Bearer ${API_TOKEN}` ? { id: 'ops' } : null,
        authenticateInternalUser: async () => null,
        getBNPLCallback: () => `${PUBLIC_BASE}/done`,
        ...(handleWebhook ? { handleWebhook } : {}),
      },
      service,
      store,
      logger: silentLogger,
    });
  }

  /**
   * Runs `request` and returns the statements it caused; on PostgreSQL also checks that the driver
   * had exactly as many exchanges with the server, so the executor's count is the whole truth. The
   * pg executor sends BEGIN in the same exchange as the transaction's first statement, so a BEGIN
   * is never an exchange of its own there.
   */
  async function statementsOf(request: () => Promise<Response>): Promise<{ status: number; log: string[] }> {
    const exchanges = vi.spyOn(pg.Client.prototype, 'query');
    log.length = 0;
    try {
      const response = await request();
      await response.arrayBuffer();
      if (backend.name === 'postgres')
        expect(exchanges).toHaveBeenCalledTimes(log.filter((statement) => statement !== 'BEGIN').length);
      return { status: response.status, log: [...log] };
    } finally {
      exchanges.mockRestore();
    }
  }

  async function webhook(m: ReturnType<typeof market>, orderId: string, eventId: string) {
    const signed = await signWebhook({
      url: m.webhookUrl,
      body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId, order_status: 'APPROVED' },
      signingKey: keys.seed,
      eventId,
    });
    return () =>
      m.handle(new Request(m.webhookUrl, { method: 'POST', headers: signed.headers, body: signed.body }));
  }

  it('a webhook without handleWebhook is one statement, outside any transaction', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const deliver = await webhook(market(), order.id, unique('evt'));
    expect(await statementsOf(deliver)).toEqual({ status: 200, log: ['bnpl_apply_webhook'] });
    // The repeat is the same one statement, which finds the event ID recorded.
    expect(await statementsOf(deliver)).toEqual({ status: 200, log: ['bnpl_apply_webhook'] });
  });

  it('a webhook with handleWebhook is BEGIN, one statement, the hook, COMMIT; its duplicate too', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const seen: (string | undefined)[] = [];
    const deliver = await webhook(
      market(async ({ order }) => {
        seen.push(order?.status);
      }),
      order.id,
      unique('evt'),
    );
    const applied = ['BEGIN', 'bnpl_apply_webhook_order_json', 'COMMIT'];
    expect(await statementsOf(deliver)).toEqual({ status: 200, log: applied });
    expect(await statementsOf(deliver)).toEqual({ status: 200, log: applied });
    // The hook ran once, for the first delivery, and saw the order as the statement left it.
    expect(seen).toEqual(['APPROVED']);
  });

  it('order creation is the reference lookup and one insert; its replay the lookup alone', async () => {
    const body = JSON.stringify(wireOrder({ reference_id: unique('ref') }));
    const m = market();
    const create = () =>
      m.handle(
        new Request(`${PUBLIC_BASE}/v1/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
          body,
        }),
      );
    expect(await statementsOf(create)).toEqual({
      status: 201,
      log: ['bnpl_find_order_by_reference', 'bnpl_insert_order'],
    });
    expect(await statementsOf(create)).toEqual({ status: 200, log: ['bnpl_find_order_by_reference'] });
  });
});
