/**
 * Counts written in prose are the suite's real ones: a check, or a broken copy of the conformance
 * market, added or removed without the READMEs following fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractChecks } from '../src/checks/index.js';
import { CONFORMANCE_VARIANTS } from './fixtures/conformance-market/variants.js';

const root = new URL('../../', import.meta.url);
const DOCUMENTS = ['README.md', 'contract-tests/README.md'];

/** Every number `pattern` captures in `file` (its first group), collapsing line breaks first. */
function stated(file: string, pattern: RegExp): number[] {
  const text = readFileSync(new URL(file, root), 'utf8').replace(/\s+/g, ' ');
  return [...text.matchAll(pattern)].map((m) => Number(m[1]));
}

describe('check counts in the documents', () => {
  it.each(DOCUMENTS)('%s states the suite’s real check count', (file) => {
    const counts = stated(file, /\b(\d+) checks\b/g);
    expect(counts.length, `${file} names the check count`).toBeGreaterThan(0);
    for (const count of counts) expect(count, file).toBe(contractChecks.length);
  });

  it.each(DOCUMENTS)('%s states how many broken copies of the conformance market there are', (file) => {
    const counts = stated(file, /\b(\d+) copies\b/g);
    expect(counts.length, `${file} names the number of broken copies`).toBeGreaterThan(0);
    for (const count of counts) expect(count, file).toBe(CONFORMANCE_VARIANTS.length);
  });
});
