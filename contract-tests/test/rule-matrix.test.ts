/**
 * The rule matrix is complete and published: every rule of docs/protocol.md has a check or a reason
 * it is not observable over HTTP, every check cites known rules, and docs/conformance-matrix.md is
 * what `pnpm conformance-matrix` generates now.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractChecks } from '../src/checks/index.js';
import { buildMatrix, formatMatrix, matrixProblems } from '../src/rules/matrix.js';
import { NOT_OBSERVABLE } from '../src/rules/not-observable.js';
import { parseProtocolRules } from '../src/rules/protocol-rules.js';

const root = new URL('../../', import.meta.url);
const protocol = readFileSync(new URL('docs/protocol.md', root), 'utf8');
const rules = parseProtocolRules(protocol);

describe('the conformance matrix', () => {
  it('reads the rules of docs/protocol.md with their section and statement', () => {
    expect(rules.length).toBeGreaterThan(80);
    const digest = rules.find((r) => r.id === 'R-WH-04');
    expect(digest?.section).toBe('§4');
    expect(digest?.text).toMatch(/SHA-256 over the raw body bytes/);
    expect(rules.every((r) => r.text.length > 10)).toBe(true);
  });

  it('refuses a rule without a check or reason, and a check citing no rule or an unknown one', () => {
    const sample = parseProtocolRules('## §1. X\n\nA must hold. [R-X-01] B must hold. [R-X-02]\n');
    const run = async () => {};
    const checks = [
      { id: 'a', title: 'a', modes: ['basic' as const], spec: 'WIRE §1', rules: ['R-X-01'], run },
      { id: 'b', title: 'b', modes: ['basic' as const], spec: 'WIRE §1', rules: [], run },
      { id: 'c', title: 'c', modes: ['basic' as const], spec: 'WIRE §1', rules: ['R-X-09'], run },
    ];
    expect(matrixProblems(sample, checks, {})).toEqual([
      'check b cites no rule',
      'check c cites R-X-09, which docs/protocol.md does not have',
      'rule R-X-02 (§1) has no check and no reason it is not observable',
    ]);
    expect(matrixProblems(sample, checks.slice(0, 1), { 'R-X-02': 'why' })).toEqual([]);
  });

  it('has a check or a reason for every rule, and every check cites known rules', () => {
    expect(matrixProblems(rules, contractChecks, NOT_OBSERVABLE)).toEqual([]);
  });

  it('is published in docs/conformance-matrix.md as generated (run `pnpm conformance-matrix`)', () => {
    const published = readFileSync(new URL('docs/conformance-matrix.md', root), 'utf8');
    expect(published).toBe(formatMatrix(buildMatrix(rules, contractChecks, NOT_OBSERVABLE), contractChecks));
  });
});
