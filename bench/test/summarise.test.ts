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

  it("compares a kit row with its own framework's baseline too, when one was measured", () => {
    const runs = new Map([
      ['baseline', [run(1000, 50), run(1000, 50), run(1000, 50)]],
      ['baseline-express', [run(700, 80), run(700, 80), run(700, 80)]],
      ['express+hook', [run(650, 90), run(630, 100), run(600, 120)]],
      ['koa+hook', [run(900, 50), run(900, 50), run(900, 50)]],
    ]);
    const peerOf = (c: string) =>
      c.startsWith('baseline') ? undefined : `baseline-${c.replace('+hook', '')}`;
    const rows = summarise(runs, {}, 'baseline', GOAL, peerOf);
    const express = rows.find((r) => r.candidate === 'express+hook')!;
    expect(express['goal ≥ 85 %']).toBe('NO');
    expect(express['vs own framework']).toBe('90 % (yes)');
    expect(express['p99 vs own fw']).toBe('1.25×');
    // koa's own baseline was not measured in these rounds: no second comparison, rather than a guess.
    expect(rows.find((r) => r.candidate === 'koa+hook')!['vs own framework']).toBe('');
    expect(rows.find((r) => r.candidate === 'baseline-express')!['vs own framework']).toBe('');
  });

  it("gives no own-framework verdict when that framework's baseline answered errors", () => {
    const runs = new Map([
      ['baseline', [run(1000, 50)]],
      ['baseline-hono', [run(21_000, 5, 84_000)]],
      ['hono', [run(900, 50)]],
    ]);
    const row = summarise(runs, {}, 'baseline', GOAL, (c) =>
      c === 'hono' ? 'baseline-hono' : undefined,
    ).find((r) => r.candidate === 'hono')!;
    expect(row['vs own framework']).toBe('n/a: errors');
    expect(row['goal ≥ 85 %']).toBe('yes');
  });
});
