/**
 * Generated cases for checks: fast-check samples at a seed derived from the run's seed and the
 * check's ID, so every run with the same seed sends the same cases (the report prints the seed;
 * `--seed` or BNPL_CERTIFY_SEED replays a run). Few samples per property keep the suite fast.
 */
import fc from 'fast-check';
import type { CheckContext } from '../types.js';

/** The seed when none is given: fixed, so that two runs of certify send the same cases. */
export const DEFAULT_SEED = 19_2026;

/** FNV-1a of the check ID mixed into the run's seed. */
export function checkSeed(runSeed: number, checkId: string): number {
  let hash = 0x811c9dc5;
  for (const char of checkId) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return (runSeed ^ hash) | 0;
}

/** `count` values of `arbitrary` at the check's seed (`salt` tells apart several properties of one check). */
export function generated<T>(
  ctx: Pick<CheckContext, 'seed'>,
  arbitrary: fc.Arbitrary<T>,
  count: number,
  salt = 0,
): T[] {
  return fc.sample(arbitrary, { seed: ctx.seed + salt, numRuns: count });
}

/** A line of text as real events carry it: Vietnamese with its combining marks, other scripts, emoji. */
export const multiByteText: fc.Arbitrary<string> = fc
  .array(
    fc.constantFrom(
      'Nguyễn',
      'Trần',
      'Thị',
      'Phạm',
      'Đặng',
      'Hồ',
      'Chí',
      'Minh',
      'đơn',
      'hàng',
      'được',
      'duyệt',
      'Bình',
      'Dương',
      'Quận',
      'Hoàn',
      'Kiếm',
      'ầ',
      'ữ',
      'ự',
      'ỹ',
      'e\u0301',
      '€',
      '漢字',
      '🛵',
      '👍🏽',
      ' ',
    ),
    { minLength: 2, maxLength: 12 },
  )
  .map((parts) => parts.join(' '));
