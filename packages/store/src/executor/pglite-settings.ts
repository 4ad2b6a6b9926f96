/**
 * How the kit starts PGlite. PGlite 0.4 reads its server settings from these start parameters and
 * the data directory's postgresql.conf, where 0.3 fixed them inside its WebAssembly build.
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pgliteCompilerScope } from './pglite-compiler.js';

/**
 * The database the kit's tables live in. PGlite 0.3 opened `template1` (0.4 opens `postgres`), so
 * every data directory made before the upgrade has its tables there: keep opening it.
 */
export const PGLITE_DATABASE = 'template1';

/**
 * PGlite's own start parameters plus smaller shared memory. Its WebAssembly heap zeroes what it
 * maps, so every megabyte of shared_buffers is resident from the start: 128 MB (initdb's default)
 * kept the process at ~245 MB before the first request, 16 MB at ~130 MB. A development
 * database's working set fits in 16 MB, and the pages around it are in the OS cache anyway.
 * One connection needs no room for a hundred (max_connections sizes per-backend shared state).
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'wal_buffers=1MB',
  '-c',
  'max_connections=5',
];

function pgliteOptions(): Pick<PGliteOptions, 'database' | 'startParams'> {
  return { database: PGLITE_DATABASE, startParams: [...PGLITE_START_PARAMS] };
}

/**
 * `PGlite.create` with the kit's settings, its WebAssembly compiled by V8's baseline compiler only
 * (`pglite-compiler.ts`). Every PGlite the store starts goes through here.
 */
export function createPglite(
  location: string,
  options: Omit<PGliteOptions, 'database' | 'startParams'> = {},
) {
  return pgliteCompilerScope.run(() => PGlite.create(location, { ...pgliteOptions(), ...options }));
}
