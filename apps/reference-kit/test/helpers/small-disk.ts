/**
 * A file system of a few MiB that a test can fill: a tmpfs mounted for the test, when it runs as
 * root with the right to mount (CI containers as a rule; `describe.runIf(smallDiskAvailable)`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Leaves about `leaveBytes` free by allocating one file; `free()` removes it again. */
  fill(leaveBytes: number): void;
  free(): Promise<void>;
  unmount(): void;
}

function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const disk = mountSmallDisk(1);
  disk?.unmount();
  return disk !== undefined;
}

export function mountSmallDisk(mebibytes: number): SmallDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'bnpl-small-disk-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${mebibytes}m`, 'tmpfs', dir]).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill(leaveBytes) {
      const df = spawnSync('df', ['--output=avail', '-B1', dir]).stdout.toString();
      const avail = Number(df.trim().split('\n').at(-1));
      const allocated = spawnSync('fallocate', ['-l', String(avail - leaveBytes), filler]);
      if (allocated.status !== 0) throw new Error(`fallocate: ${allocated.stderr.toString()}`);
    },
    free: () => rm(filler, { force: true }),
    unmount() {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const smallDiskAvailable = canMount();
