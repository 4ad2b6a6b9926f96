/**
 * A store on PGlite does not load the PostgreSQL driver (`pg` and its dependencies: a tenth of the
 * reference server's start-up CPU on PGlite, the cold start bench's row); a store on PostgreSQL does.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from './helpers/backends.js';

const run = promisify(execFile);

async function driversLoadedBy(databaseUrl?: string): Promise<{ pg: boolean; redacted: string }> {
  const child = join(import.meta.dirname, 'fixtures', 'driver-loading-child.ts');
  const args = ['--conditions=source', '--import', 'tsx', child, ...(databaseUrl ? [databaseUrl] : [])];
  const { stdout } = await run(process.execPath, args);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('the PostgreSQL driver', () => {
  it('is not loaded by a store on PGlite, which still redacts database URLs', async () => {
    expect(await driversLoadedBy()).toEqual({ pg: false, redacted: 'postgres://user:***@db.invalid/market' });
  });

  it.runIf(TEST_DATABASE_URL)('is loaded by a store on PostgreSQL', async () => {
    expect((await driversLoadedBy(TEST_DATABASE_URL)).pg).toBe(true);
  });
});
