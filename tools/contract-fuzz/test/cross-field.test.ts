/**
 * The fuzz's own reading of the cross-field rules (src/cross-field.ts): every rule a document lists
 * with a 400 refusal is judged or named as not judged, and a balanced order breaks none of the sum
 * rules while an unbalanced one is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolverOf } from '../src/arbitrary.js';
import { balanced, JUDGED_RULES, NOT_JUDGED_RULES, rulesBrokenBy } from '../src/cross-field.js';
import { documentNamed, operationsOf } from '../src/fuzz.js';
import { NOT_A_400 } from '../src/judge.js';
import { requestsOf } from '../src/requests.js';

const DOCUMENTS = ['market-basic.json', 'market-data-sharing.json', 'service.json', 'sandbox-admin.json'];

describe('cross-field rules as the fuzz judges them', () => {
  it('every listed rule refused with 400 is judged or named as not judged', () => {
    const listed = new Set(
      DOCUMENTS.flatMap((name) =>
        operationsOf(documentNamed(name)).flatMap((op) =>
          (op.operation['x-bnpl-rules'] ?? []).map((r) => r.id),
        ),
      ),
    );
    const unaccounted = [...listed].filter(
      (id) => !NOT_A_400.has(id) && !JUDGED_RULES.includes(id) && !NOT_JUDGED_RULES.includes(id),
    );
    expect(unaccounted).toEqual([]);
  });

  it('balanced orders break no sum rule; the same orders unbalanced are caught', () => {
    const document = documentNamed('market-basic.json');
    const create = operationsOf(document).find((op) => op.operation.operationId === 'createOrder')!;
    const sums = ['R-ORDER-01', 'R-ORDER-02', 'R-LINE-05'];
    let balancedCount = 0;
    fc.assert(
      fc.property(requestsOf(create, resolverOf(document)), (request) => {
        if (request.kind !== 'valid') return;
        const value = balanced(request.value);
        expect(rulesBrokenBy(sums, { value, params: {} }).broken).toEqual([]);
        balancedCount++;
        const order = value as { total_amount: { value: string } };
        const off = {
          ...order,
          total_amount: { ...order.total_amount, value: `${order.total_amount.value}1` },
        };
        expect(rulesBrokenBy(sums, { value: off, params: {} }).broken).toContain('R-ORDER-01');
      }),
      { seed: 31, numRuns: 100 },
    );
    expect(balancedCount).toBeGreaterThan(0);
  });
});
