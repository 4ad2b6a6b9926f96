import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MarketLogger, silentLogger } from '@bnpl-kit/core';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgExecutor } from '../src/executor/pg.js';
import { createPgliteExecutor } from '../src/executor/pglite.js';
import type { SqlExecutor } from '../src/executor/types.js';
import { EMBEDDED_MIGRATIONS } from '../src/migrations/embedded.js';
import {
  MIGRATION_LOCK_NAMESPACE,
  migrate,
  migrationChecksum,
  migrationsApplied,
} from '../src/migrations/migrate.js';
import {
  backends,
  randomSchemaName,
  TEST_DATABASE_URL,
  type TestDatabase,
  withAdminClient,
} from './helpers/backends.js';

const TABLES = [
  'bnpl_commitments',
  'bnpl_jobs',
  'bnpl_migrations',
  'bnpl_order_status_history',
  'bnpl_orders',
  'bnpl_processed_events',
  'bnpl_sandbox_records',
  'bnpl_users',
];

describe('embedded migrations', () => {
  it('match migrations/*.sql (run `pnpm --filter @bnpl-kit/store migrations:embed` when this fails)', () => {
    const dir = join(import.meta.dirname, '..', 'migrations');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(EMBEDDED_MIGRATIONS.map((m) => m.name)).toEqual(files.map((f) => f.replace(/\.sql$/, '')));
    for (const m of EMBEDDED_MIGRATIONS) {
      expect(m.sql).toBe(readFileSync(join(dir, `${m.name}.sql`), 'utf8'));
    }
  });
});

describe.each(backends)('migrations on $name', (backend) => {
  const opened: TestDatabase[] = [];
  const open = async (...args: Parameters<typeof backend.open>) => {
    const db = await backend.open(...args);
    opened.push(db);
    return db;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it('are applied at open, recorded with checksums, and a second run applies nothing', async () => {
    const { store } = await open();
    expect(await store.migrationsApplied()).toBe(true);
    expect(await store.ping()).toBe(true);

    const { rows } = await store.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM bnpl_migrations ORDER BY name',
    );
    expect(rows).toEqual(
      EMBEDDED_MIGRATIONS.map((m) => ({ name: m.name, checksum: migrationChecksum(m.sql) })),
    );

    const tables = await store.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_name LIKE 'bnpl\\_%' ORDER BY table_name`,
    );
    expect(tables.rows.map((r) => r.name)).toEqual(TABLES);

    expect(await store.migrate()).toEqual({ applied: [], recorded: EMBEDDED_MIGRATIONS.map((m) => m.name) });
    const again = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM bnpl_migrations');
    expect(again.rows[0]?.n).toBe(EMBEDDED_MIGRATIONS.length);
  });

  it('report not applied on a database opened without migrating', async () => {
    const { store } = await open({ migrate: false });
    expect(await store.ping()).toBe(true);
    expect(await store.migrationsApplied()).toBe(false);
    await store.migrate();
    expect(await store.migrationsApplied()).toBe(true);
  });

  it('run concurrently from several stores: exactly one applies, none fails', async () => {
    const db = await open({ migrate: false });
    const peers = [db.store, await db.peer({ migrate: false }), await db.peer({ migrate: false })];
    const results = await Promise.all(peers.map((s) => s.migrate()));
    const names = EMBEDDED_MIGRATIONS.map((m) => m.name);
    expect(results.filter((r) => r.applied.length > 0)).toEqual([{ applied: names, recorded: names }]);
    for (const r of results) expect(r.recorded).toEqual(names);
    const { rows } = await db.store.query<{ n: number }>('SELECT count(*)::int AS n FROM bnpl_migrations');
    expect(rows[0]?.n).toBe(names.length);
  });
});

/** A bare executor per backend, to run hand-made migration lists. */
const postgresUrl = TEST_DATABASE_URL;
const executors: {
  name: string;
  open(): Promise<{ executor: SqlExecutor; schema?: string; drop(): Promise<void> }>;
}[] = [
  {
    name: 'pglite',
    async open() {
      const executor = await createPgliteExecutor({ memory: true });
      return { executor, drop: () => executor.close() };
    },
  },
  ...(postgresUrl
    ? [
        {
          name: 'postgres',
          async open() {
            const schema = randomSchemaName();
            const executor = createPgExecutor({
              connectionString: postgresUrl,
              schema,
              logger: silentLogger,
            });
            return {
              executor,
              schema,
              async drop() {
                await executor.close();
                await withAdminClient((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
              },
            };
          },
        },
      ]
    : []),
];

describe.each(executors)('the migration runner on $name', ({ open }) => {
  const logs: { level: string; obj: object; msg?: string }[] = [];
  const logger: MarketLogger = {
    debug: (obj, msg) => logs.push({ level: 'debug', obj, ...(msg === undefined ? {} : { msg }) }),
    info: (obj, msg) => logs.push({ level: 'info', obj, ...(msg === undefined ? {} : { msg }) }),
    warn: (obj, msg) => logs.push({ level: 'warn', obj, ...(msg === undefined ? {} : { msg }) }),
    error: (obj, msg) => logs.push({ level: 'error', obj, ...(msg === undefined ? {} : { msg }) }),
  };

  it('applies in name order and rolls the whole run back when one migration fails', async () => {
    const { executor, schema, drop } = await open();
    try {
      const good = [
        { name: '0002_b', sql: 'CREATE TABLE t_b (id int REFERENCES t_a (id))' },
        { name: '0001_a', sql: 'CREATE TABLE t_a (id int PRIMARY KEY); INSERT INTO t_a VALUES (1)' },
      ];
      const bad = [
        ...good,
        { name: '0003_bad', sql: 'CREATE TABLE t_c (id int); SELECT no_such_function()' },
      ];
      await expect(migrate(executor, { schema, logger, migrations: bad })).rejects.toThrow(
        /no_such_function/,
      );
      const regclass = await executor.query<{ a: string | null }>(`SELECT to_regclass('t_a')::text AS a`);
      expect(regclass.rows[0]?.a ?? null).toBeNull();

      // The referencing table comes second although listed first: order is by name.
      const result = await migrate(executor, { schema, logger, migrations: good });
      expect(result.applied).toEqual(['0001_a', '0002_b']);
      expect(await migrationsApplied(executor, good)).toBe(true);
      expect(await migrationsApplied(executor, bad)).toBe(false);
    } finally {
      await drop();
    }
  });

  it('checks an up-to-date database in one statement, without a transaction', async () => {
    const { executor, schema, drop } = await open();
    try {
      const migrations = [
        { name: '0001_a', sql: 'CREATE TABLE t_a (id int)' },
        { name: '0002_b', sql: 'CREATE TABLE t_b (id int)' },
      ];
      await migrate(executor, { schema, logger, migrations });
      const calls: string[] = [];
      const counted: SqlExecutor = {
        dialect: executor.dialect,
        location: executor.location,
        query(sql, params) {
          calls.push(sql);
          return executor.query(sql, params);
        },
        transaction(work) {
          calls.push('transaction');
          return executor.transaction(work);
        },
        close: () => executor.close(),
      };
      expect(await migrate(counted, { schema, logger, migrations })).toEqual({
        applied: [],
        recorded: ['0001_a', '0002_b'],
      });
      expect(calls).toEqual(['SELECT name, checksum FROM bnpl_migrations']);

      // One more migration: the locked path applies it.
      calls.length = 0;
      const more = [...migrations, { name: '0003_c', sql: 'CREATE TABLE t_c (id int)' }];
      expect((await migrate(counted, { schema, logger, migrations: more })).applied).toEqual(['0003_c']);
      expect(calls).toContain('transaction');
    } finally {
      await drop();
    }
  });

  it('warns (and changes nothing) when an applied migration was edited', async () => {
    const { executor, schema, drop } = await open();
    try {
      await migrate(executor, {
        schema,
        logger,
        migrations: [{ name: '0001_a', sql: 'CREATE TABLE t_a (id int)' }],
      });
      logs.length = 0;
      const edited = [{ name: '0001_a', sql: 'CREATE TABLE t_a (id bigint)' }];
      expect(await migrate(executor, { schema, logger, migrations: edited })).toEqual({
        applied: [],
        recorded: ['0001_a'],
      });
      expect(logs).toEqual([expect.objectContaining({ level: 'warn', obj: { migration: '0001_a' } })]);
    } finally {
      await drop();
    }
  });
});

describe.runIf(postgresUrl)('the migration runner waiting for another process on postgres', () => {
  it('finds the schema that process created while it waited for the lock', async () => {
    const schema = randomSchemaName();
    const warmSchema = randomSchemaName();
    // One connection, so the warm-up below and the migration share a server backend.
    const executor = createPgExecutor({
      connectionString: postgresUrl ?? '',
      schema,
      max: 1,
      logger: silentLogger,
    });
    const other = new pg.Client({ connectionString: postgresUrl });
    await other.connect();
    try {
      // A backend that has run DDL before (behind a pooler, one that served another process's
      // migrations) has the catalog entries cached that would otherwise make it read the latest
      // invalidations on the way; and it has looked the schema up (search_path) and not found it.
      await executor.query(`CREATE SCHEMA ${warmSchema}`);
      // The other process holds the migration lock, as while it migrates.
      await other.query('BEGIN');
      const { rows } = await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await other.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema]);
      const migrations = [{ name: '0001_a', sql: 'CREATE TABLE t_a (id int)' }];
      const running = migrate(executor, { schema, logger: silentLogger, migrations });
      await waitUntilBlockedBy(rows[0]?.pid ?? 0);
      await other.query(`CREATE SCHEMA ${schema}`);
      await other.query('COMMIT');
      expect(await running).toEqual({ applied: ['0001_a'], recorded: ['0001_a'] });
    } finally {
      await other.end();
      await executor.close();
      await withAdminClient((c) => c.query(`DROP SCHEMA IF EXISTS ${schema}, ${warmSchema} CASCADE`));
    }
  });
});

/** Resolves once a session waits for a lock that backend `pid` holds (each round trip is the wait). */
async function waitUntilBlockedBy(pid: number): Promise<void> {
  await withAdminClient(async (client) => {
    for (let round = 0; round < 5_000; round++) {
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))',
        [pid],
      );
      if ((rows[0]?.n ?? 0) > 0) return;
    }
    throw new Error(`no session became blocked by backend ${pid}`);
  });
}
