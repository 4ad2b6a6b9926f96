/**
 * Check counts written in prose are the suite's real count: a check added or removed without the
 * READMEs following fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractChecks } from '../src/checks/index.js';

const root = new URL('../../', import.meta.url);

describe('check counts in the documents', () => {
  it.each(['README.md', 'contract-tests/README.md'])('%s states the suite’s real check count', (file) => {
    const text = readFileSync(new URL(file, root), 'utf8');
    const stated = [...text.matchAll(/\b(\d+) checks\b/g)].map((m) => Number(m[1]));
    expect(stated.length, `${file} names the check count`).toBeGreaterThan(0);
    for (const count of stated) expect(count, file).toBe(contractChecks.length);
  });
});
