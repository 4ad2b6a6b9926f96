import { describe, expect, it } from 'vitest';
import { withTestConcurrency } from '../test-concurrency.mjs';

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
