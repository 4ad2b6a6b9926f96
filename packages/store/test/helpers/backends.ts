/**
 * The backends every suite runs on: PGlite in memory always, and the real PostgreSQL named by
 * TEST_DATABASE_URL when it is set. Each `open()` gets its own database: a fresh PGlite, or a
 * fresh schema (`bnpl_test_<random>`) on PostgreSQL that `close()` drops again.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type OpenStoreOptions, openStore, type Store } from '../../src/index.js';
import { pgbouncerAvailable, type RunningPgBouncer, startPgBouncer } from '../../src/testing.js';

// The store imports PGlite only when it opens one; loading it here, with the suite, keeps that
// one-off cost (seconds on a busy machine) out of the first test's timeout.
await import('../../src/executor/pglite.js');

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

type StoreOptions = Omit<OpenStoreOptions, 'databaseUrl' | 'dataDir' | 'memory' | 'schema'>;

export interface TestDatabase {
  store: Store;
  /**
   * Another store on the same database. On PostgreSQL a second pool, like a second server
   * process; PGlite is one connection in one process, so there it is the same store.
   */
  peer(options?: StoreOptions): Promise<Store>;
  /**
   * On PostgreSQL, resolves once some other session is waiting for a lock held by the session with
   * backend PID `pid` (how a test knows a concurrent transaction really is blocked). PGlite runs
   * one transaction at a time, so there the second cannot have started yet: resolves at once.
   */
  waitUntilBlockedBy(pid: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestBackend {
  /** `pgbouncer`: the same PostgreSQL through a PgBouncer in transaction mode. */
  name: 'pglite' | 'postgres' | 'pgbouncer';
  open(options?: StoreOptions): Promise<TestDatabase>;
}

const pglite: TestBackend = {
  name: 'pglite',
  async open(options = {}) {
    const store = await openStore({ ...options, memory: true });
    return {
      store,
      peer: async () => store,
      waitUntilBlockedBy: async () => {},
      close: () => store.close(),
    };
  },
};

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function randomSchemaName(): string {
  return `bnpl_test_${randomBytes(6).toString('hex')}`;
}

const postgres = (name: TestBackend['name'], url: () => Promise<string>): TestBackend => ({
  name,
  async open(options = {}) {
    const databaseUrl = await url();
    const schema = randomSchemaName();
    const stores: Store[] = [];
    const openOne = async (extra: StoreOptions = {}) => {
      const store = await openStore({ ...options, ...extra, databaseUrl, schema, poolSize: 20 });
      stores.push(store);
      return store;
    };
    const store = await openOne();
    return {
      store,
      peer: openOne,
      async waitUntilBlockedBy(pid) {
        // Poll the server's own lock graph; each round trip is the wait, no timers involved.
        for (let round = 0; round < 5_000; round++) {
          const { rows } = await store.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))',
            [pid],
          );
          if ((rows[0]?.n ?? 0) > 0) return;
        }
        throw new Error(`no session became blocked by backend ${pid}`);
      },
      async close() {
        await Promise.all(stores.map((s) => s.close()));
        await withAdminClient((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      },
    };
  },
});

/**
 * One PgBouncer per test file, started when a suite first opens a database through it and stopped
 * after the file by test/setup.ts (a setup file runs for every file; this module, loaded once per
 * worker when files share one, would register its own afterAll for the first file only).
 */
let pooler: Promise<RunningPgBouncer> | undefined;
export async function stopPooler(): Promise<void> {
  const running = pooler;
  pooler = undefined;
  await (await running?.catch(() => undefined))?.stop();
}

function throughPgBouncer(databaseUrl: string): TestBackend {
  return postgres('pgbouncer', async () => {
    pooler ??= startPgBouncer(databaseUrl, { poolMode: 'transaction' });
    return (await pooler).url;
  });
}

export const backends: TestBackend[] = [
  pglite,
  ...(TEST_DATABASE_URL ? [postgres('postgres', async () => TEST_DATABASE_URL)] : []),
  ...(TEST_DATABASE_URL && pgbouncerAvailable ? [throughPgBouncer(TEST_DATABASE_URL)] : []),
];

/** A clock tests move by hand. */
export function manualClock(start = new Date('2030-01-01T00:00:00.000Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

/** A unique-per-call suffix, so tests sharing one database never touch each other's rows. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

export interface SuiteDatabase {
  readonly db: TestDatabase;
  readonly store: Store;
  /** `db.peer()`, opened once for the suite. */
  readonly peer: Store;
}

/** Opens a database on `backend` before the suite's tests and closes it after them. */
export function databaseForSuite(backend: TestBackend, options: StoreOptions = {}): SuiteDatabase {
  let opened: { db: TestDatabase; peer: Store } | undefined;
  beforeAll(async () => {
    const db = await backend.open(options);
    opened = { db, peer: await db.peer(options) };
  });
  afterAll(() => opened?.db.close());
  const current = () => {
    if (opened === undefined) throw new Error('the suite database is opened in beforeAll');
    return opened;
  };
  return {
    get db() {
      return current().db;
    },
    get store() {
      return current().db.store;
    },
    get peer() {
      return current().peer;
    },
  };
}

/** A promise and the function that settles it: how a test orders two concurrent transactions. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
