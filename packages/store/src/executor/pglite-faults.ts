/**
 * Which PGlite failures are the data directory's disk failing (full, or an I/O error) rather than
 * a wrong query: SQLSTATE class 53 (insufficient resources: 53100 disk_full, "could not extend
 * file … No space left on device") and 58 (system errors such as 58030 io_error), or a Node file
 * error. They answer `503 store_unavailable` (retry later; readiness is false meanwhile), not 500.
 */

import { statfs } from 'node:fs/promises';
import { KitError } from '@bnpl-kit/core';
import { sqlState } from '../repositories/pg-errors.js';

const DISK_STATES = /^(53|58)/;
const DISK_ERRNO = /^(ENOSPC|EIO|EDQUOT|EROFS)$/;

export function isDiskFailure(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (DISK_STATES.test(state) || DISK_ERRNO.test(state));
}

/** Rethrows a disk failure as `store_unavailable` (503), without the path; anything else unchanged. */
export function translatePgliteFault(err: unknown): unknown {
  if (err instanceof KitError || !isDiskFailure(err)) return err;
  return new KitError('store_unavailable', 'The embedded database cannot write to its data directory', {
    cause: err,
  });
}

/**
 * Below this much free space in the data directory's file system the store reports itself not
 * ready: a checkpoint or a table extension needs room well before the disk is completely full.
 */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** Free bytes for an unprivileged writer where `dir` lives; undefined when the OS cannot say. */
export async function freeBytes(dir: string): Promise<number | undefined> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}
