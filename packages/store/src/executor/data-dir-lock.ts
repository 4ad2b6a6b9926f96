/**
 * A lock file next to a PGlite data directory. PGlite has no postmaster to keep a second process
 * out, and two processes writing one directory corrupt it; this turns that into a clear error.
 * A lock left by a process that died (crash, SIGKILL) is taken over, so a restart just works.
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

// Directories this process holds. A lock file carrying our own PID but absent here was left by an
// earlier process that had the same PID (common for PID 1 in containers), so it is stale.
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(lockPath: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(lockPath, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock for `dataDir` or throws; resolves to the function that releases it. */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const dir = resolve(dataDir);
  const lockPath = `${dir}.lock`;
  if (heldHere.has(dir)) {
    throw new Error(
      `PGlite data directory ${dir} is already open in this process; close the other store first`,
    );
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      heldHere.add(dir);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        heldHere.delete(dir);
        await unlink(lockPath).catch(() => {});
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = await readOwner(lockPath);
      if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `PGlite data directory ${dir} is in use by process ${owner}. PGlite serves one process; ` +
            'to run several processes on one database, set DATABASE_URL to a PostgreSQL server.',
        );
      }
      await unlink(lockPath).catch(() => {});
    }
  }
  throw new Error(`Could not take the lock ${lockPath}; another process is starting on the same directory`);
}
