/**
 * The fixed sample of `pnpm certify:mutation` that CI runs: each mutant below is one small change to
 * a copy of the conformance market (test/fixtures/conformance-market, never the file itself), chosen
 * across the protocol's rules; certify, run on it as a real listening server, must fail the named
 * checks. The whole mutation run (mutation/stryker.config.mjs) is too slow for CI; this sample keeps
 * the property it measures from regressing: a check weakened until a mutant passes fails here.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { IntegrationMode } from '@bnpl-kit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTextReport } from '../src/index.js';
import { certifyServed } from './fixtures/certify.js';
import type * as Market from './fixtures/conformance-market/market.js';
import { LOADED_SERVICE_TIMEOUT_MS } from './fixtures/loaded-machine.js';

interface SampleMutant {
  rule: string;
  /** File of the conformance market, the exact text to replace (it must occur once) and its replacement. */
  file: string;
  from: string;
  to: string;
  mode: IntegrationMode;
  caughtBy: string[];
}

export const SAMPLE_MUTANTS: readonly SampleMutant[] = [
  {
    rule: 'R-WH-09',
    file: 'webhook.ts',
    from: 'Math.abs(age) > input.toleranceSeconds',
    to: 'age > input.toleranceSeconds',
    mode: 'basic',
    caughtBy: ['webhook.vector.timestamp-10-min-in-the-future'],
  },
  {
    rule: 'R-WH-08',
    file: 'webhook.ts',
    from: "if (algorithm !== 'EdDSA')",
    to: 'if (false)',
    mode: 'basic',
    caughtBy: ['webhook.vector.algorithm-is-not-eddsa'],
  },
  {
    rule: 'R-WH-01',
    file: 'webhook.ts',
    from: 'const TIMESTAMP = /^',
    to: 'const TIMESTAMP = /',
    mode: 'basic',
    caughtBy: ['webhook.malformed-encodings'],
  },
  {
    rule: 'R-WH-14',
    file: 'market.ts',
    from: '    await applyEvent(event);\n    processed.add(dedupeKey);',
    to: '    await applyEvent(event);',
    mode: 'basic',
    caughtBy: ['webhook.duplicate-event-id'],
  },
  {
    rule: 'R-SVC-13',
    file: 'market.ts',
    from: 'const upper = raw.replace(/[a-z]+/g, (letters) => letters.toUpperCase());',
    to: 'const upper = raw;',
    mode: 'basic',
    caughtBy: ['webhook.status-case-insensitive'],
  },
  {
    rule: 'R-STATE-02',
    file: 'market.ts',
    from: "DISBURSING: ['PAID'],",
    to: "DISBURSING: ['PAID', 'APPROVED'],",
    mode: 'basic',
    caughtBy: ['webhook.out-of-order'],
  },
  {
    rule: 'R-LINE-04',
    file: 'validate.ts',
    from: 'q >= 1 && q <= 10_000',
    to: 'q >= 1 && q <= 100_000',
    mode: 'basic',
    caughtBy: ['orders.validation.quantity-too-large'],
  },
  {
    rule: 'R-MONEY-02',
    file: 'validate.ts',
    from: 'const AMOUNT = /^(0|[1-9]\\d{0,14})$/;',
    to: 'const AMOUNT = /^(0|[1-9]\\d{0,15})$/;',
    mode: 'basic',
    caughtBy: ['orders.fields.one-at-a-time'],
  },
  {
    rule: 'R-EP-03',
    file: 'market.ts',
    from: '      if (!same)\n',
    to: '      if (false)\n',
    mode: 'basic',
    caughtBy: ['orders.create.idempotency-conflict'],
  },
  {
    rule: 'R-SVC-04',
    file: 'service.ts',
    from: "if (response.status === 401 && operation !== 'token')",
    to: 'if (false)',
    mode: 'basic',
    caughtBy: ['service.token.renewed-on-401'],
  },
  {
    // The one survivor of the last full run (mutation/survivors.md): killed since the domain cases
    // send each string's shortest valid value.
    rule: 'R-SVC-14',
    file: 'events.ts',
    from: "if (typeof value !== 'string' || value.length < 1 || value.length > 64)",
    to: "if (typeof value !== 'string' || value.length <= 1 || value.length > 64)",
    mode: 'basic',
    caughtBy: ['domain.webhook.order-status'],
  },
  {
    rule: 'R-EP-10',
    file: 'validate.ts',
    from: "text(issues, invoice.number, 'invoice.number');",
    to: "text(issues, invoice.number, 'invoice.number', 1000);",
    mode: 'data-sharing',
    caughtBy: ['orders.disburse.invoice-validation'],
  },
  {
    rule: 'R-SVC-06',
    file: 'service.ts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the market's source text, not a template
    from: 'const key = `create:${reference}`;',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the market's source text, not a template
    to: 'const key = `create:${reference}:${Date.now()}`;',
    mode: 'basic',
    caughtBy: ['service.idempotency-key.create'],
  },
  {
    rule: 'R-STATE-06',
    file: 'market.ts',
    from: 'if (order && event.is_fulfilled) await disburseOnReadiness(order);',
    to: 'if (order) await disburseOnReadiness(order);',
    mode: 'data-sharing',
    caughtBy: ['webhook.requirement-unfulfilled'],
  },
  {
    rule: 'R-SVC-12',
    file: 'market.ts',
    from: "typeof event.order_id === 'number' ? String(event.order_id) : event.order_id;",
    to: 'event.order_id;',
    mode: 'basic',
    caughtBy: ['webhook.unknown-order'],
  },
  {
    rule: 'R-STATE-08',
    file: 'market.ts',
    from: ': !READY_FROM.has(order.status)) return;',
    to: ': FINAL.has(order.status)) return;',
    mode: 'data-sharing',
    caughtBy: ['webhook.readiness-every-order'],
  },
  {
    rule: 'R-WH-17',
    file: 'events.ts',
    from: 'if (!Number.isSafeInteger(value) || value < 0)',
    to: 'if (!Number.isSafeInteger(value))',
    mode: 'basic',
    caughtBy: ['domain.webhook.order-status', 'domain.webhook.disbursement-requirement'],
  },
  {
    rule: 'R-EP-10',
    file: 'market.ts',
    from: 'return given;\n  }',
    to: 'return isObject(given) ? { ...given, url: undefined } : given;\n  }',
    mode: 'data-sharing',
    caughtBy: ['service.disburse.invoice-as-sent'],
  },
];

const fixture = fileURLToPath(new URL('./fixtures/conformance-market/', import.meta.url));
const copies = mkdtempSync(join(tmpdir(), 'bnpl-mutant-'));
afterAll(() => rmSync(copies, { recursive: true, force: true }));

/** A copy of the market with one change; the import of its market.ts is that mutant's market. */
async function mutatedMarket(mutant: SampleMutant, index: number): Promise<typeof Market> {
  const dir = join(copies, String(index));
  cpSync(fixture, dir, { recursive: true });
  const path = join(dir, mutant.file);
  const source = readFileSync(path, 'utf8');
  // Exactly once: a fixture edit that moves the text makes this fail loudly, not test nothing.
  expect(source.split(mutant.from).length - 1, `occurrences of ${JSON.stringify(mutant.from)}`).toBe(1);
  writeFileSync(path, source.replace(mutant.from, mutant.to));
  return import(pathToFileURL(join(dir, 'market.ts')).href);
}

describe('certify kills the fixed sample of mutants of the conformance market', () => {
  SAMPLE_MUTANTS.forEach((mutant, index) => {
    it(`${mutant.rule}: ${mutant.file} \`${mutant.from.trim()}\` → \`${mutant.to.trim()}\``, async () => {
      const market = await mutatedMarket(mutant, index);
      const server = await market.serveConformanceMarket();
      const state = market.createConformanceState();
      let start: (() => void) | undefined;
      const report = await certifyServed(
        mutant.mode,
        server,
        (run, heldCalls) => {
          start = () =>
            server.use(
              market.createConformanceMarket({
                mode: mutant.mode,
                env: run.env,
                serviceTimeoutMs: LOADED_SERVICE_TIMEOUT_MS,
                heldCalls,
                state,
              }),
            );
          start();
        },
        mutant.caughtBy,
        { restartMarket: async () => start?.() },
      );
      expect(report.ok).toBe(false);
      const failed = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
      expect(failed, formatTextReport(report)).toEqual(expect.arrayContaining(mutant.caughtBy));
    });
  });
});
