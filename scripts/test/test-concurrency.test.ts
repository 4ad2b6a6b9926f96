import { describe, expect, it } from 'vitest';
import { splitConcurrency, withTestConcurrency } from '../test-concurrency.mjs';

describe('withTestConcurrency', () => {
  it('runs three packages per core, before the caller’s own arguments', () => {
    expect(withTestConcurrency(['--filter', '@bnpl-kit/core'], 2)).toEqual([
      '--concurrency=6',
      '--filter',
      '@bnpl-kit/core',
    ]);
    expect(withTestConcurrency([], 8)).toEqual(['--concurrency=24']);
  });

  it('keeps at least two at once on one core', () => {
    expect(withTestConcurrency([], 0)).toEqual(['--concurrency=2']);
  });

  it('leaves a concurrency the caller gave alone, in either spelling', () => {
    expect(withTestConcurrency(['--concurrency=1'], 2)).toEqual(['--concurrency=1']);
    expect(withTestConcurrency(['--concurrency', '50%'], 2)).toEqual(['--concurrency', '50%']);
  });
});

describe('splitConcurrency', () => {
  it('takes the caller’s concurrency in either spelling, or as a share of the cores, out of the rest', () => {
    expect(splitConcurrency(['--concurrency=4', '--force'], 2)).toEqual({ limit: 4, rest: ['--force'] });
    expect(splitConcurrency(['--concurrency', '3', '--force'], 2)).toEqual({ limit: 3, rest: ['--force'] });
    expect(splitConcurrency(['--concurrency', '50%'], 8)).toEqual({ limit: 4, rest: [] });
  });

  it('runs three packages per core when none is given', () => {
    expect(splitConcurrency(['--force'], 2)).toEqual({ limit: 6, rest: ['--force'] });
  });

  it('refuses a concurrency that would run nothing', () => {
    expect(() => splitConcurrency(['--concurrency=0'], 2)).toThrow(/at least one/);
    expect(() => splitConcurrency(['--concurrency', 'many'], 2)).toThrow(/at least one/);
    expect(() => splitConcurrency(['--concurrency', '10%'], 2)).toThrow(/at least one/);
  });
});
