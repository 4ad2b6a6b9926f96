/**
 * The database the `jobs` and `migrate` commands work on, first found of: `--database-url`,
 * `--data-dir` (the embedded PGlite in `<dir>/pglite`, where the reference servers keep it),
 * DATABASE_URL, DATA_DIR, `.data`. The store package is loaded only by these commands. The
 * embedded database is one process's at a time: stop the server before pointing a command at it.
 */
import { join } from 'node:path';
import type { Command } from 'commander';

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  schema?: string;
}

/** Adds the options every database command takes. */
export function withDatabaseOptions(command: Command): Command {
  return command
    .option('--database-url <url>', 'PostgreSQL connection URL (default: DATABASE_URL)')
    .option(
      '--data-dir <dir>',
      'the embedded database of this data directory (default: DATA_DIR, else .data)',
    )
    .option('--schema <name>', "schema of the kit's tables (default: DATABASE_SCHEMA, else the search_path)");
}

export async function openDatabase(options: DatabaseOptions, migrate: boolean) {
  const { openStore, redactDatabaseUrl } = await import('@bnpl-kit/store');
  const env = process.env;
  const fromEnv = options.dataDir === undefined ? env.DATABASE_URL : undefined;
  const databaseUrl = (options.databaseUrl ?? fromEnv)?.trim() || undefined;
  const dataDir = join(options.dataDir ?? (env.DATA_DIR?.trim() || '.data'), 'pglite');
  const schema = options.schema ?? (env.DATABASE_SCHEMA?.trim() || undefined);
  const store = await openStore({ databaseUrl, dataDir, schema, migrate });
  const where = databaseUrl ? redactDatabaseUrl(databaseUrl) : `PGlite at ${store.location}`;
  return { store, where };
}
