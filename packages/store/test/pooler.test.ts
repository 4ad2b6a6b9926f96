/**
 * Issue 20 §1: the store behind PgBouncer, in every pool mode and with the usual workarounds, as
 * well as directly: it starts, its tables land in the configured schema (not `public`), the
 * statement timeout still applies, named prepared statements never clash, and a pool mode the
 * store cannot work under is refused at start-up with a clear error.
 */
import { KitError } from '@bnpl-kit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/index.js';
import {
  type PgBouncerOptions,
  pgbouncerAvailable,
  type RunningPgBouncer,
  startPgBouncer,
} from '../src/testing.js';
import { randomSchemaName, TEST_DATABASE_URL, unique, withAdminClient } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

const IGNORE_SESSION_PARAMETERS = {
  ignore_startup_parameters: 'statement_timeout, options, extra_float_digits',
};

const poolers: { name: string; options: PgBouncerOptions | undefined }[] = [
  { name: 'directly', options: undefined },
  // Session mode gives each client a server connection for its whole life: as many as the pool.
  { name: 'PgBouncer in session mode', options: { poolMode: 'session', serverConnections: 12 } },
  { name: 'PgBouncer in transaction mode', options: { poolMode: 'transaction' } },
  {
    name: 'PgBouncer in session mode ignoring the startup parameters',
    options: { poolMode: 'session', serverConnections: 12, settings: IGNORE_SESSION_PARAMETERS },
  },
  {
    name: 'PgBouncer in transaction mode ignoring the startup parameters',
    options: { poolMode: 'transaction', settings: IGNORE_SESSION_PARAMETERS },
  },
];

const started: RunningPgBouncer[] = [];
const schemas: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  if (TEST_DATABASE_URL && schemas.length > 0) {
    await withAdminClient((c) => c.query(schemas.map((s) => `DROP SCHEMA IF EXISTS ${s} CASCADE`).join(';')));
  }
});

async function urlFor(databaseUrl: string, options: PgBouncerOptions | undefined): Promise<string> {
  if (options === undefined) return databaseUrl;
  const pooler = await startPgBouncer(databaseUrl, options);
  started.push(pooler);
  return pooler.url;
}

async function tablesIn(schema: string): Promise<string[]> {
  return withAdminClient(async (c) => {
    const { rows } = await c.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    );
    return rows.map((r) => r.table_name);
  });
}

describe.runIf(TEST_DATABASE_URL && pgbouncerAvailable)('the store through a connection pooler', () => {
  const databaseUrl = TEST_DATABASE_URL!;

  describe.each(poolers)('$name', ({ options }) => {
    let store: Store | undefined;
    afterAll(() => store?.close());

    it('migrates into its schema, applies the statement timeout and runs the hot statements', async () => {
      const schema = randomSchemaName();
      schemas.push(schema);
      const url = await urlFor(databaseUrl, options);
      store = await openStore({ databaseUrl: url, schema, statementTimeoutMs: 2_000, poolSize: 12 });
      expect(await tablesIn(schema)).toContain('bnpl_orders');

      // Many clients over a few server connections: a named statement would clash here.
      const orders = Array.from({ length: 24 }, () => newOrder());
      await Promise.all(orders.map((o) => store!.insertOrder(o)));
      const applied = await Promise.all(
        orders.map((o) =>
          store!.applyWebhookEvent({
            eventId: unique('evt'),
            eventType: 'BNPL_ORDER_STATUS_UPDATED',
            orderId: o.id,
            statusUpdate: { to: 'APPROVED', allowedFrom: ['PENDING'], source: 'test' },
            withOrder: true,
          }),
        ),
      );
      expect(applied.map((a) => a.order?.status)).toEqual(orders.map(() => 'APPROVED'));
      await Promise.all(
        orders.map((o) =>
          store!.transaction(async (tx) => {
            expect((await tx.findOrderById(o.id))?.status).toBe('APPROVED');
            await tx.enqueueJob({ kind: 'pooler-test', payload: {}, dedupeKey: `job-${o.id}` });
          }),
        ),
      );
      expect(await store.listJobs({ kind: 'pooler-test' })).toHaveLength(orders.length);
      // The rows are in the schema's tables, not in same-named tables elsewhere on the search_path.
      const inSchema = await withAdminClient((c) =>
        c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.bnpl_orders WHERE id = ANY($1)`, [
          orders.map((o) => o.id),
        ]),
      );
      expect(inSchema.rows[0]?.n).toBe(orders.length);

      // The timeout holds outside and inside a transaction: the server cancels (57014 → 503).
      for (const run of [
        () => store!.query('SELECT pg_sleep(30)'),
        () => store!.transaction((tx) => tx.query('SELECT pg_sleep(30)')),
      ]) {
        const error = await run().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(KitError);
        expect((error as KitError).code).toBe('store_unavailable');
        expect(((error as KitError).cause as { code?: string }).code).toBe('57014');
      }
    });
  });

  it('refuses to start behind a statement-mode pooler, saying why', async () => {
    const url = await urlFor(databaseUrl, { poolMode: 'statement' });
    await expect(openStore({ databaseUrl: url, schema: randomSchemaName() })).rejects.toThrow(
      /statement mode.*pool_mode = transaction or session/s,
    );
  });

  it('turns a named prepared statement clash into a clear 503, then sends statements unnamed', async () => {
    const schema = randomSchemaName();
    schemas.push(schema);
    // One server connection for two store clients: the second one's PREPARE meets the first's.
    const url = await urlFor(databaseUrl, { poolMode: 'transaction', serverConnections: 1 });
    const store = await openStore({ databaseUrl: url, schema, preparedStatements: true });
    try {
      const order = newOrder();
      await store.insertOrder(order);
      const outcomes = await Promise.allSettled([
        store.findOrderById(order.id),
        store.findOrderById(order.id),
      ]);
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      expect(failures.length).toBeGreaterThan(0);
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(KitError);
        expect((failure as KitError).code).toBe('store_unavailable');
        expect((failure as KitError).message).toMatch(/prepared statements clash/);
      }
      const again = await Promise.all([store.findOrderById(order.id), store.findOrderById(order.id)]);
      expect(again.map((o) => o?.id)).toEqual([order.id, order.id]);
    } finally {
      await store.close();
    }
  });
});
