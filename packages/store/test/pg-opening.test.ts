/**
 * The pg executor sends a transaction's BEGIN in the same exchange as its first statement
 * (src/executor/pg-opening-query.ts). What that must not change: the statement runs inside the
 * transaction, never without its BEGIN, a failure leaves the connection usable, and a prepared
 * statement is recorded as parsed only when its own Parse succeeded.
 */
import { silentLogger } from '@bnpl-kit/core';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgExecutor, type PgExecutorOptions } from '../src/executor/pg.js';
import { queryWithOpening } from '../src/executor/pg-opening-query.js';
import { prepared } from '../src/executor/prepared.js';
import type { SqlExecutor } from '../src/executor/types.js';
import { randomSchemaName, TEST_DATABASE_URL, withAdminClient } from './helpers/backends.js';
import { failureOf } from './helpers/failure.js';

const databaseUrl = TEST_DATABASE_URL as string;

/**
 * An executor on a scratch schema holding `items`, made before the suite's tests and dropped after
 * them. One connection: every transaction runs on the same one, so what one leaves behind (an open
 * transaction, a wrongly recorded prepared statement) meets the next.
 */
function scratchExecutor(options: Partial<PgExecutorOptions> = {}): {
  schema: string;
  executor: () => SqlExecutor;
} {
  const schema = randomSchemaName();
  let executor: SqlExecutor | undefined;
  beforeAll(async () => {
    await withAdminClient((admin) =>
      admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.items (id int PRIMARY KEY, v text)`),
    );
    executor = createPgExecutor({
      connectionString: databaseUrl,
      schema,
      max: 1,
      logger: silentLogger,
      ...options,
    });
    await executor.query('SELECT 1');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await executor?.query('DELETE FROM items');
  });
  afterAll(async () => {
    await executor?.close();
    await withAdminClient((admin) => admin.query(`DROP SCHEMA ${schema} CASCADE`));
  });
  return { schema, executor: () => executor as SqlExecutor };
}

describe.runIf(TEST_DATABASE_URL)('pg executor: BEGIN goes with the first statement', () => {
  const scratch = scratchExecutor();
  const schema = scratch.schema;
  let executor: SqlExecutor;
  beforeAll(() => {
    executor = scratch.executor();
  });

  async function ids(): Promise<number[]> {
    const { rows } = await executor.query<{ id: number }>('SELECT id FROM items ORDER BY id');
    return rows.map((row) => row.id);
  }

  it('sends the first statement with its BEGIN, then one exchange per statement and the COMMIT', async () => {
    await executor.query('SELECT 1');
    const exchanges = vi.spyOn(pg.Client.prototype, 'query');
    const inside = await executor.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id) VALUES (1)');
      // The first statement ran inside this transaction: it began before the second statement.
      const { rows } = await tx.query<{ inside: boolean }>(
        'SELECT transaction_timestamp() < statement_timestamp() AS inside',
      );
      return rows[0]?.inside;
    });
    expect(inside).toBe(true);
    expect(exchanges).toHaveBeenCalledTimes(3);
    expect(await ids()).toEqual([1]);
  });

  it('rolls the first statement back with the rest when the work fails', async () => {
    const error = await failureOf(() =>
      executor.transaction(async (tx) => {
        await tx.query('INSERT INTO items (id) VALUES (2)');
        throw new Error('work failed');
      }),
    );
    expect((error as Error).message).toBe('work failed');
    expect(await ids()).toEqual([]);
  });

  it('sends nothing for a transaction that runs no statement', async () => {
    await executor.query('SELECT 1');
    const exchanges = vi.spyOn(pg.Client.prototype, 'query');
    expect(await executor.transaction(async () => 'nothing to do')).toBe('nothing to do');
    expect(exchanges).not.toHaveBeenCalled();
  });

  it('leaves the connection usable when the first statement fails', async () => {
    await executor.query('INSERT INTO items (id) VALUES (3)');
    const error = await failureOf(() =>
      executor.transaction((tx) => tx.query('INSERT INTO items (id) VALUES (3)')),
    );
    expect((error as { code?: string }).code).toBe('23505');
    // Same single connection: had the failed transaction stayed open, this would be inside it.
    await executor.transaction((tx) => tx.query('INSERT INTO items (id) VALUES (4)'));
    expect(await ids()).toEqual([3, 4]);
  });

  it('parses a prepared statement again when its first Parse, behind the BEGIN, failed', async () => {
    const table = `later_${Math.random().toString(36).slice(2, 8)}`;
    const sql = prepared(`bnpl_test_${table}`, `SELECT v FROM ${table} WHERE id = $1`);
    const missing = await failureOf(() => executor.transaction((tx) => tx.query(sql, [1])));
    expect((missing as { code?: string }).code).toBe('42P01');
    await executor.query(`CREATE TABLE ${table} (id int, v text)`);
    await executor.query(`INSERT INTO ${table} VALUES (1, 'found')`);
    // Recorded as parsed after the BEGIN's own ParseComplete, this would be "does not exist" (26000).
    const { rows } = await executor.transaction((tx) => tx.query<{ v: string }>(sql, [1]));
    expect(rows).toEqual([{ v: 'found' }]);
    // And once parsed it is not parsed again: a second Parse of the name would be 42P05.
    expect((await executor.transaction((tx) => tx.query<{ v: string }>(sql, [1]))).rows).toEqual([
      { v: 'found' },
    ]);
  });

  it('never runs the statement when an opening statement failed', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const error = await failureOf(() =>
        queryWithOpening(client, ['BEGIN', 'SELECT 1/0'], {
          text: `INSERT INTO ${schema}.items (id) VALUES ($1)`,
          values: [5],
        }),
      );
      expect((error as { code?: string }).code).toBe('22012');
      await client.query('ROLLBACK');
      // Without its BEGIN, an INSERT synced on its own would have committed by itself.
      expect(await ids()).toEqual([]);
      expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('runs the first statement on another connection when the pooled one was ended while idle', async () => {
    const { rows } = await executor.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await withAdminClient((admin) => admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]));
    await executor.transaction((tx) => tx.query('INSERT INTO items (id) VALUES (6)'));
    expect(await ids()).toEqual([6]);
  });
});

describe.runIf(TEST_DATABASE_URL)('pg executor behind a transaction-mode pooler: a statement alone', () => {
  // `pooler: 'transaction'` keeps nothing in the session, as behind PgBouncer: every statement
  // gets its settings from the SET LOCALs of a transaction of its own.
  const scratch = scratchExecutor({ pooler: 'transaction', statementTimeoutMs: 4321 });
  const schema = scratch.schema;
  let executor: SqlExecutor;
  beforeAll(() => {
    executor = scratch.executor();
  });

  it('is one exchange: BEGIN, the SET LOCALs, the statement and COMMIT', async () => {
    const exchanges = vi.spyOn(pg.Client.prototype, 'query');
    const { rows } = await executor.query<{ timeout: string; schema: string }>(
      "SELECT current_setting('statement_timeout') AS timeout, current_schema() AS schema",
    );
    expect(rows).toEqual([{ timeout: '4321ms', schema }]);
    await executor.query('INSERT INTO items (id) VALUES (1)');
    expect(exchanges).toHaveBeenCalledTimes(2);
    // Committed: another session sees the row.
    const seen = await withAdminClient((admin) => admin.query(`SELECT id FROM ${schema}.items`));
    expect(seen.rows).toEqual([{ id: 1 }]);
  });

  it('rolls back a statement that fails and leaves the connection usable', async () => {
    await executor.query('INSERT INTO items (id) VALUES (1)');
    const error = await failureOf(() => executor.query('INSERT INTO items (id) VALUES (1)'));
    expect((error as { code?: string }).code).toBe('23505');
    // The one connection again: still inside the aborted transaction, this would fail with 25P02.
    await executor.query('INSERT INTO items (id) VALUES (2)');
    expect((await executor.query<{ id: number }>('SELECT id FROM items ORDER BY id')).rows).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });
});
