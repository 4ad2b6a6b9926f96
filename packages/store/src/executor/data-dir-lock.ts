/**
 * A lock file next to a PGlite data directory. PGlite has no postmaster to keep a second process
 * out, and two processes writing one directory corrupt it; this turns that into a clear error.
 * A lock left by a process that died (crash, SIGKILL) is taken over, so a restart just works, also
 * when its PID now belongs to another live process (after a reboot, or in a container where every
 * start is PID 1 or close to it): the lock records the owner's start time too (Linux
 * `/proc/<pid>/stat`), and a live process that started at another time is not the owner.
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

// Directories this process holds. A lock file carrying our own PID but absent here was left by an
// earlier process that had the same PID (common for PID 1 in containers), so it is stale.
const heldHere = new Set<string>();

/** Whether a process with this PID runs (also pglite-template.ts's build lock). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When the process started, in clock ticks since boot; undefined where there is no /proc. */
async function startTime(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

interface Owner {
  pid: number;
  /** Absent in lock files of earlier versions, and where there is no /proc. */
  start: string | undefined;
}

async function readOwner(lockPath: string): Promise<Owner | undefined> {
  try {
    const [pidText, start] = (await readFile(lockPath, 'utf8')).trim().split(/\s+/);
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isSafeInteger(pid) && pid > 0 ? { pid, start } : undefined;
  } catch {
    return undefined;
  }
}

/** The owner still runs: its PID is alive and, where both are known, started when the lock says. */
async function ownerRuns(owner: Owner): Promise<boolean> {
  if (!isAlive(owner.pid)) return false;
  if (owner.start === undefined) return true;
  const now = await startTime(owner.pid);
  return now === undefined || now === owner.start;
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
  const ownStart = await startTime(process.pid);
  const content = ownStart === undefined ? String(process.pid) : `${process.pid} ${ownStart}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockPath, content, { flag: 'wx' });
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
      if (owner !== undefined && owner.pid !== process.pid && (await ownerRuns(owner))) {
        throw new Error(
          `PGlite data directory ${dir} is in use by process ${owner.pid}. PGlite serves one process; ` +
            'to run several processes on one database, set DATABASE_URL to a PostgreSQL server.',
        );
      }
      await unlink(lockPath).catch(() => {});
    }
  }
  throw new Error(`Could not take the lock ${lockPath}; another process is starting on the same directory`);
}
