/**
 * docs/operations.md on the job worker's settings: the environment variables it names are read
 * where it says (loadConfig's, which the worker takes from its config, or the reference servers'
 * alone), and the worker options it gives integrators are options the worker declares.
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

  // The worker reads the config it is given (loadConfig's keys); every other variable is the
  // reference servers' alone. The prose says which is which, so both homes are checked.
  const CONFIG_KEYS = /RECONCILE_(AFTER|EVERY)_MS/;
  it.each(variables)('%s is read where docs/operations.md says', (name) => {
    if (CONFIG_KEYS.test(name)) {
      expect(read('packages/core/src/models/config.ts')).toMatch(new RegExp(`\\b${name}:`));
      expect(read('packages/store/src/worker/market-worker.ts')).toMatch(
        /options\.config\?\.reconcile(After|Every)Ms/,
      );
      expect(section).toContain(`\`${name}\``);
      expect(section).toContain('`createMarketWorker({ config })` takes them from the config');
      return;
    }
    expect(read('apps/reference-kit/src/config.ts')).toMatch(new RegExp(`\\b${name}:`));
    for (const file of ['market-worker.ts', 'reconciliation.ts', 'retention.ts', 'job-worker.ts']) {
      // Read means a schema key or an environment lookup; a comment may name the variable.
      expect(read(`packages/store/src/worker/${file}`)).not.toMatch(
        new RegExp(`\\b${name}\\s*:|env\\.${name}\\b|env\\[`),
      );
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
