/**
 * Applies the embedded migrations in name order, each recorded in `bnpl_migrations`, all in one
 * transaction that first takes a transaction-scoped advisory lock. Two processes starting at once
 * on one PostgreSQL: the second waits for the lock, then finds everything applied and does nothing.
 * A failing migration rolls back every migration of that run.
 *
 * The schema is created before, in a transaction of its own under the same lock. Not with
 * `CREATE SCHEMA IF NOT EXISTS` after the lock: that looks the name up in the server backend's
 * catalog cache, and a backend does not read the invalidations other sessions committed while it
 * waited on an advisory lock (only a relation lock or a new transaction makes it). A warm backend
 * that had looked the name up before the other process created it (`SET LOCAL search_path`
 * does) still believes it missing and fails with a duplicate key on `pg_namespace_nspname_index`.
 * Behind a transaction pooler every backend is warm, so this happened there on most concurrent
 * starts. Hence: the existence check reads `pg_namespace` with the statement's snapshot, taken
 * after the lock, and the migrations run in the next transaction, which starts with fresh caches.
 *
 * A database that already has every migration (every start but the first) is recognised by one
 * unlocked read of `bnpl_migrations` before any of that.
 */
import { createHash } from 'node:crypto';
import type { MarketLogger } from '@bnpl-kit/core';
import type { SqlExecutor, TransactionClient } from '../executor/types.js';
import { EMBEDDED_MIGRATIONS } from './embedded.js';
import type { Migration } from './types.js';

/** First half of the advisory lock key: "bnpl" in ASCII. The second half is the schema's hash. */
export const MIGRATION_LOCK_NAMESPACE = 0x626e706c;

export interface MigrationResult {
  /** Migrations this call applied (empty when the database was up to date). */
  applied: string[];
  /** Every migration recorded in the database after this call. */
  recorded: string[];
}

export interface MigrateOptions {
  /** Schema to create and migrate; undefined means the connection's current schema. */
  schema?: string | undefined;
  logger: MarketLogger;
  migrations?: readonly Migration[];
}

export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

export async function migrate(executor: SqlExecutor, options: MigrateOptions): Promise<MigrationResult> {
  const migrations = [...(options.migrations ?? EMBEDDED_MIGRATIONS)].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  // Every start of an up-to-date database: one statement instead of two locked transactions.
  const upToDate = await recordedIfUpToDate(executor, migrations);
  if (upToDate !== undefined) return { applied: [], recorded: upToDate };
  const schema = options.schema;
  if (schema !== undefined) await executor.transaction((tx) => createSchema(tx, schema));
  return executor.transaction(async (tx) => {
    await lockMigrations(tx, schema);
    await tx.exec(`CREATE TABLE IF NOT EXISTS bnpl_migrations (
      name       text PRIMARY KEY,
      checksum   text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM bnpl_migrations ORDER BY name',
    );
    const recorded = new Map(rows.map((r) => [r.name, r.checksum]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const checksum = migrationChecksum(migration.sql);
      const previous = recorded.get(migration.name);
      if (previous !== undefined) {
        // Editing an applied migration changes nothing in an existing database; say so loudly.
        if (previous !== checksum) {
          options.logger.warn(
            { migration: migration.name },
            'applied migration differs from its file; add a new migration instead of editing an applied one',
          );
        }
        continue;
      }
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO bnpl_migrations (name, checksum) VALUES ($1, $2)', [
        migration.name,
        checksum,
      ]);
      recorded.set(migration.name, checksum);
      applied.push(migration.name);
      options.logger.info({ migration: migration.name }, 'applied database migration');
    }
    return { applied, recorded: [...recorded.keys()].sort() };
  });
}

/**
 * The recorded migrations when every one of `migrations` is recorded with its checksum, read in one
 * statement without a lock: applied migrations are never removed, so what a committed read shows
 * applied stays applied. Undefined otherwise (something to apply, an edited migration to warn about,
 * no table or schema yet, or the read failed): the locked path then does the work and reports the
 * failures.
 */
async function recordedIfUpToDate(
  executor: Pick<SqlExecutor, 'query'>,
  migrations: readonly Migration[],
): Promise<string[] | undefined> {
  let rows: { name: string; checksum: string }[];
  try {
    ({ rows } = await executor.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM bnpl_migrations',
    ));
  } catch {
    return undefined;
  }
  const recorded = new Map(rows.map((r) => [r.name, r.checksum]));
  const current = migrations.every((m) => recorded.get(m.name) === migrationChecksum(m.sql));
  return current ? [...recorded.keys()].sort() : undefined;
}

/** Serialises the migrations of one schema across processes, until the transaction ends. */
async function lockMigrations(tx: TransactionClient, schema: string | undefined): Promise<void> {
  // coalesce: with a search_path naming a schema that does not exist yet, current_schema() is
  // NULL, and pg_advisory_xact_lock(int, NULL) would return without locking anything.
  await tx.query(`SELECT pg_advisory_xact_lock($1, hashtext(coalesce($2::text, current_schema(), '')))`, [
    MIGRATION_LOCK_NAMESPACE,
    schema ?? null,
  ]);
}

/** Creates `schema` unless a committed one exists (see the file comment for why not IF NOT EXISTS). */
async function createSchema(tx: TransactionClient, schema: string): Promise<void> {
  await lockMigrations(tx, schema);
  // An unquoted identifier folds to lower case, as `CREATE SCHEMA` below stores it.
  const { rows } = await tx.query<{ present: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = lower($1)) AS present',
    [schema],
  );
  if (rows[0]?.present !== true) await tx.exec(`CREATE SCHEMA ${schema}`);
}

/** True when every embedded migration is recorded (false also when the table does not exist). */
export async function migrationsApplied(
  executor: Pick<SqlExecutor, 'query'>,
  migrations: readonly Migration[] = EMBEDDED_MIGRATIONS,
): Promise<boolean> {
  const { rows } = await executor.query<{ present: boolean }>(
    `SELECT to_regclass('bnpl_migrations') IS NOT NULL AS present`,
  );
  if (rows[0]?.present !== true) return false;
  const recorded = await executor.query<{ name: string }>('SELECT name FROM bnpl_migrations');
  const names = new Set(recorded.rows.map((r) => r.name));
  return migrations.every((m) => names.has(m.name));
}
