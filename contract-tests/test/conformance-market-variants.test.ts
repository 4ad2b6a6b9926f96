/**
 * Variants of the conformance market (fixtures/conformance-market): markets that behave otherwise
 * but rightly (retrying keyed service calls, refusing unknown members, serving one request at a
 * time, a clock a second off, a status endpoint that hides its record while the service fails)
 * pass, or leave a check not exercised with the capability they lack; each variant with one
 * deliberate defect fails on the check that names that defect. The conformance market itself
 * passing whole is conformance-market.<mode>.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { itCatchesEach } from './fixtures/certify.js';
import { certifyConformance as certify } from './fixtures/certify-conformance.js';
import { CONFORMANCE_VARIANTS } from './fixtures/conformance-market/variants.js';

describe('a conformance market that retries keyed service calls (WIRE §6 R-SVC-05, same key R-SVC-06)', () => {
  // Every check of the service's failures and keys: a retry with the same Idempotency-Key is correct.
  const only = ['service-failure.', 'service.idempotency-key.', 'service.token.', 'orders.create.valid'];
  for (const mode of ['basic', 'data-sharing'] as const) {
    it(`passes those ${mode} checks`, async () => {
      // The invoice a retried disbursement carries (R-EP-11): data-sharing only.
      const invoice = mode === 'data-sharing' ? ['service.disburse.'] : [];
      const retried = new Set<string>();
      const report = await certify(mode, {
        retryKeyedCalls: true,
        onKeyedRetry: (operation) => retried.add(operation),
        only: [...only, ...invoice],
      });
      expect(report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.message}`)).toEqual(
        [],
      );
      expect(report.results.some((r) => r.id === 'service-failure.create.error')).toBe(true);
      // The market did repeat calls (a 5xx or no answer), so the checks saw retries, not one attempt.
      expect([...retried].sort()).toEqual(
        mode === 'data-sharing' ? ['cancel', 'create order', 'disburse', 'push claims'] : ['create order'],
      );
    });
  }
});

describe('a conformance market that refuses members its document does not name, naming only them', () => {
  // certify sends a required member under its camelCase name alone (referenceId for reference_id):
  // a strict decoder's 400 naming that spelling, not the missing member, is a refusal all the same.
  it('passes every domain check of the data-sharing mode', async () => {
    const report = await certify('data-sharing', { refusesUnknownMembers: true, only: ['domain.'] });
    expect(report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(report.results.filter((r) => r.id.startsWith('domain.')).length).toBeGreaterThanOrEqual(10);
  });
});

describe('a conformance market that serves one request at a time', () => {
  it('passes every other basic check, and leaves the read-during-webhook race not exercised (overlapping-requests): no read can race a webhook', async () => {
    const report = await certify('basic', { oneRequestAtATime: true });
    const unpassed = report.results.filter((r) => r.status !== 'pass');
    expect(unpassed.map((r) => `${r.id}: ${r.status}`)).toEqual([
      'concurrency.status-read-during-webhook: not-exercised',
    ]);
    expect(unpassed[0]?.lacks).toEqual({ capability: 'overlapping-requests', declared: false });
    expect(unpassed[0]?.message).toMatch(/acknowledged the webhook only after it answered the status read/);
  });
});

describe('a conformance market whose clock is off', () => {
  it("fails the window's edges and says the market's clock is the cause (12 s behind, from its Date header)", async () => {
    const report = await certify('basic', { clockSkewSeconds: -12, only: ['webhook.time-window'] });
    const [result] = report.results;
    expect(result?.status).toBe('fail');
    expect(result?.message).toMatch(/the market's clock is about 12 s behind certify's \(its Date header\)/);
  });

  it('passes with a clock a second off, and says nothing of it', async () => {
    const report = await certify('basic', { clockSkewSeconds: 1, only: ['webhook.time-window'] });
    expect(report.results.map((r) => r.status)).toEqual(['pass']);
  });
});

describe('a conformance market whose status endpoint hides its own record (issue 32)', () => {
  const only = ['webhook.out-of-order', 'webhook.requirement-unfulfilled'];
  for (const mode of ['basic', 'data-sharing'] as const) {
    it(`passes the record checks in ${mode} mode when it answers 502 while the service fails (R-ERR-11)`, async () => {
      const report = await certify(mode, { hidesRecord: 'while-service-fails', only });
      expect(report.results.map((r) => `${r.id}: ${r.status}`)).toEqual(
        only.map((id) => `${id}: pass`).sort(),
      );
    });
  }

  it('leaves them not exercised (own-record), never passed, when no status read shows the record', async () => {
    const report = await certify('basic', { hidesRecord: 'always', only });
    for (const id of only) {
      const result = report.results.find((r) => r.id === id);
      expect(result?.status, `${id}: ${result?.message}`).toBe('not-exercised');
      expect(result?.lacks).toEqual({ capability: 'own-record', declared: false });
    }
  });
});

describe('a conformance market variant with one defect', () => {
  itCatchesEach(
    CONFORMANCE_VARIANTS,
    (variant) => certify(variant.mode, { defects: [variant.defect], only: variant.only ?? variant.caughtBy }),
    (variant, report) => variant.also?.(report),
  );
});
