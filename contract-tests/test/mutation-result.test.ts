/**
 * The mutation score the README states is the one `pnpm certify:mutation` last wrote
 * (mutation/result.json, committed with the run), and every mutant that survived that run is
 * classified in mutation/survivors.md: as the check that now kills it, or as equivalent, with why.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const result = JSON.parse(read('../mutation/result.json')) as {
  mutants: number;
  score: number;
  scoreCovered: number;
  survivors: { at: string; mutator: string }[];
};

describe('the mutation score in the docs', () => {
  it("README's certify section states the last run's score and mutant count", () => {
    const readme = read('../../README.md');
    const stated = /mutation score \*\*([\d.]+)%\*\* over (\d+) mutants/.exec(readme);
    expect(stated, 'README names "mutation score **N%** over M mutants"').not.toBeNull();
    expect({ score: Number(stated![1]), mutants: Number(stated![2]) }).toEqual({
      score: result.score,
      mutants: result.mutants,
    });
  });

  it('mutation/survivors.md classifies every survivor of the last run', () => {
    const classified = read('../mutation/survivors.md');
    const missing = result.survivors.filter((s) => !classified.includes(`${s.at} ${s.mutator}`));
    expect(missing).toEqual([]);
  });
});
