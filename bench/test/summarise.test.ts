import { describe, expect, it } from 'vitest';
import type { Measured } from '../http-child.js';
import { summarise } from '../pg-rounds.js';

function run(rps: number, p99: number, bad = 0): Measured {
  return {
    rps,
    p99,
    bad,
    requests: rps * 4,
    sent: rps * 4,
    cpuMicrosPerRequest: 500,
    mainCpuMicrosPerRequest: 350,
    pgCpuMicrosPerRequest: 400,
    sideCpuMicrosPerRequest: undefined,
    roundTripsPerRequest: 2,
    wrapped: false,
    warmupSeconds: 5,
    warmupSteady: true,
  };
}

const GOAL = { ratio: 1.3, covers: (c: string) => c.endsWith('+hook') };

describe('summarise', () => {
  it('gives the goals a verdict from the median per-round ratios', () => {
    const runs = new Map([
      ['baseline', [run(1000, 50), run(1000, 50), run(1000, 50)]],
      ['hono+hook', [run(900, 60), run(800, 70), run(700, 80)]],
    ]);
    const row = summarise(runs, {}, 'baseline', GOAL).find((r) => r.candidate === 'hono+hook')!;
    expect(row['goal ≥ 85 %']).toBe('NO');
    expect(row['p99 goal ≤ 1.3×']).toBe('NO');
    expect(row['warm-up s']).toBe('5');
  });

  it('gives no verdict when the candidate or the reference answered errors in any round', () => {
    const clean = [run(1000, 50), run(1000, 50), run(1000, 50)];
    const refusedOnce = [run(1000, 50), run(1000, 50), run(21_000, 5, 84_000)];
    for (const [base, kit] of [
      [clean, refusedOnce],
      [refusedOnce, clean],
    ]) {
      const rows = summarise(
        new Map([
          ['baseline', base!],
          ['hono+hook', kit!],
        ]),
        {},
        'baseline',
        GOAL,
      );
      const row = rows.find((r) => r.candidate === 'hono+hook')!;
      expect(row['goal ≥ 85 %']).toBe('n/a: errors');
      expect(row['p99 goal ≤ 1.3×']).toBe('n/a: errors');
    }
  });

  it('says when a run was measured before its warm-up settled', () => {
    const runs = new Map([
      ['baseline', [run(1000, 50)]],
      ['koa+hook', [{ ...run(1000, 50), warmupSteady: false, warmupSeconds: 10 }]],
    ]);
    const row = summarise(runs, {}, 'baseline', GOAL).find((r) => r.candidate === 'koa+hook')!;
    expect(row.notes).toMatch(/still warming up when measured/);
  });
});
