/** The whole test command's start order (scripts/test-schedule.mjs). */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inPool, LONGEST_FIRST, startOrder, testedPackages } from '../test-schedule.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('startOrder', () => {
  it('starts the longest suites first, in their order, then the rest as listed', () => {
    expect(
      startOrder(['@bnpl-kit/core', '@bnpl-kit/runtimes', '@bnpl-kit/web', '@bnpl-kit/contract-tests']),
    ).toEqual(['@bnpl-kit/contract-tests', '@bnpl-kit/runtimes', '@bnpl-kit/core', '@bnpl-kit/web']);
  });
});

describe('LONGEST_FIRST', () => {
  it('names only workspace packages that have tests (a renamed package would silently lose its place)', () => {
    // The packages the test command runs, as it finds them (scripts/test.mjs).
    const tested = testedPackages(ROOT);
    expect(tested.length).toBeGreaterThan(LONGEST_FIRST.length);
    for (const name of LONGEST_FIRST) expect(tested).toContain(name);
  });
});

describe('inPool', () => {
  it('never runs more than the limit at once, and starts them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const done = inPool([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
    });
    while (started.length < 5 || releases.length > 0) {
      await Promise.resolve();
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });
});
