/**
 * docs/operations.md on the job worker's settings: the environment variables it names are the
 * reference servers' (their config declares each, the published worker reads none), and the worker
 * options it gives integrators instead are options the worker declares.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const doc = read('docs/operations.md');
const section = doc.slice(doc.indexOf('## The job worker'), doc.indexOf('**Backoff.**'));

const settingsColumn = [...section.matchAll(/^\|[^\n]*\| ([^|\n]*(?:\\\|[^|\n]*)*) \|$/gm)]
  .map((m) => m[1] ?? '')
  .join(' ');
const variables = [
  ...new Set([...settingsColumn.matchAll(/`([A-Z][A-Z_]+)(?:=[^`]*)?`/g)].map((m) => m[1]!)),
];

describe('docs/operations.md: the job worker’s settings', () => {
  it('names the variables of the reference servers', () => {
    expect(variables).toEqual(
      expect.arrayContaining(['RECONCILE_AFTER_MS', 'RECONCILE_EVERY_MS', 'RETENTION_DAYS']),
    );
  });

  it.each(variables)('%s is read by the reference servers’ config, not by the published worker', (name) => {
    expect(read('apps/reference-kit/src/config.ts')).toMatch(new RegExp(`\\b${name}:`));
    for (const file of ['market-worker.ts', 'reconciliation.ts', 'retention.ts', 'job-worker.ts']) {
      expect(read(`packages/store/src/worker/${file}`)).not.toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('gives integrators options createMarketWorker declares', () => {
    const call = section.match(/`createMarketWorker\(\{ config, store, reconciliation: \{ ([^}]+) \} \}\)`/);
    expect(call, 'the createMarketWorker example').not.toBeNull();
    const reconciliation = read('packages/store/src/worker/reconciliation.ts');
    for (const option of (call?.[1] ?? '').split(', '))
      expect(reconciliation).toMatch(new RegExp(`\\b${option}\\?: number`));
    const worker = read('packages/store/src/worker/market-worker.ts');
    expect(worker).toMatch(/\breconciliation\?: ReconciliationOptions \| false/);
    expect(worker).toMatch(/\bretention\?: /);
    expect(worker).toMatch(/'leaseMs'/);
    expect(section).toContain('`retention: { afterMs }` and `leaseMs`');
    expect(read('packages/store/src/worker/retention.ts')).toMatch(/\bafterMs\?: number/);
  });
});
