/**
 * The route table is executable: on every route, the router authenticates and decodes from the
 * entry, and an answer the entry does not declare (a success status outside `answers`, a problem
 * code outside `problems`) is caught: a 500 `internal` in a sandbox, logged in production.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, KitError } from '../src/errors.js';
import type { MarketHandlers } from '../src/market/create-market.js';
import { createMemoryStore } from '../src/market/memory-store.js';
import type { MarketHandler } from '../src/market/route-input.js';
import {
  MARKET_OPERATIONS,
  MARKET_ROUTES,
  type MarketOperation,
  marketOperationsFor,
} from '../src/market/route-table.js';
import type { MarketLogger } from '../src/observability/logger.js';
import { makeMarket } from './market-support.js';
import { seedSampleState, sendSample } from './route-samples.js';

function undeclaredCode(operation: MarketOperation) {
  const declared: readonly string[] = MARKET_ROUTES[operation].problems;
  return ERROR_CODES.find((code) => code !== 'internal' && !declared.includes(code))!;
}

function declaredStatus(operation: MarketOperation): number {
  return Number(Object.keys(MARKET_ROUTES[operation].answers)[0]);
}

/** Every route's function replaced by `answer` for `operation`; the others never run. */
function handlersAnswering(operation: MarketOperation, answer: MarketHandler): MarketHandlers {
  const never: MarketHandler = async () => {
    throw new Error('not the route under test');
  };
  const handlers = Object.fromEntries(MARKET_OPERATIONS.map((name) => [name, never]));
  return { ...handlers, [operation]: answer } as unknown as MarketHandlers;
}

interface Logged {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

function recordingLogger(): MarketLogger & { lines: Logged[] } {
  const lines: Logged[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

async function marketWith(
  operation: MarketOperation,
  answer: MarketHandler,
  mode: 'sandbox' | 'production' = 'sandbox',
) {
  const logger = recordingLogger();
  // Production refuses a store that says it is not durable; this one's answers are all the test needs.
  const store = { ...createMemoryStore(), durable: true as never };
  const t = await makeMarket({
    logger,
    store,
    config: { mode },
    handlers: handlersAnswering(operation, answer),
  });
  await seedSampleState(t);
  return { t, logger };
}

const json = (status: number) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: new TextEncoder().encode('{}'),
});

describe('an answer the route table does not declare is caught, on every route', () => {
  for (const operation of MARKET_OPERATIONS) {
    describe(operation, () => {
      it('a sandbox answers an undeclared success status with 500 internal and logs it', async () => {
        const { t, logger } = await marketWith(operation, async () => json(299));
        const response = await sendSample(t, operation);
        expect(response.status).toBe(500);
        expect((await response.json()).code).toBe('internal');
        expect(logger.lines).toContainEqual(
          expect.objectContaining({
            level: 'error',
            fields: expect.objectContaining({ route: operation, answered: 'status 299' }),
          }),
        );
      });

      it('a sandbox answers an undeclared problem code with 500 internal and logs it', async () => {
        const code = undeclaredCode(operation);
        const { t, logger } = await marketWith(operation, async () => {
          throw new KitError(code, 'not in the table');
        });
        const response = await sendSample(t, operation);
        expect(response.status).toBe(500);
        expect((await response.json()).code).toBe('internal');
        expect(
          logger.lines.some(
            (l) => l.level === 'error' && String(l.fields.answered).startsWith(`problem ${code}`),
          ),
        ).toBe(true);
      });

      it('a declared status and a declared problem go out unchanged', async () => {
        const status = declaredStatus(operation);
        const ok = await marketWith(operation, async () => json(status));
        expect((await sendSample(ok.t, operation)).status).toBe(status);
        const code = MARKET_ROUTES[operation].problems[0]!;
        const refused = await marketWith(operation, async () => {
          throw new KitError(code, 'declared');
        });
        const response = await sendSample(refused.t, operation);
        expect((await response.json()).code).toBe(code);
      });

      it('hands the function its authenticated principal and decoded input', async () => {
        let seen: Parameters<MarketHandler>[0] | undefined;
        const { t } = await marketWith(operation, async (input) => {
          seen = input;
          return json(declaredStatus(operation));
        });
        await sendSample(t, operation);
        expect(seen).toBeDefined();
        const entry = MARKET_ROUTES[operation];
        if (entry.auth !== 'none') expect(seen!.principal).toBeDefined();
        if ('request' in entry && entry.request !== undefined) expect(seen!.body).toBeDefined();
        if (entry.auth === 'webhook-signature')
          expect(seen!.body).toMatchObject({ type: 'BNPL_ORDER_STATUS_UPDATED' });
        for (const name of Object.keys(('params' in entry && entry.params) || {}))
          expect(typeof (seen!.params as Record<string, string>)[name]).toBe('string');
      });
    });
  }

  for (const operation of marketOperationsFor('data-sharing', 'production')) {
    it(`${operation}: production lets the answer out and logs the breach`, async () => {
      const { t, logger } = await marketWith(operation, async () => json(299), 'production');
      const response = await sendSample(t, operation);
      expect(response.status).toBe(299);
      expect(logger.lines).toContainEqual(
        expect.objectContaining({ level: 'error', fields: expect.objectContaining({ route: operation }) }),
      );
    });
  }

  it('every rule ID of the table exists in docs/protocol.md', async () => {
    const { readFile } = await import('node:fs/promises');
    const protocol = await readFile(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
    for (const operation of MARKET_OPERATIONS) {
      const rules = MARKET_ROUTES[operation].rules;
      expect(rules.length, operation).toBeGreaterThan(0);
      for (const rule of rules) expect(protocol, `${operation}: ${rule}`).toContain(`[${rule}]`);
    }
  });

  it('the real functions answer every sample with a declared success status', async () => {
    for (const operation of MARKET_OPERATIONS) {
      const t = await makeMarket();
      await seedSampleState(t);
      const response = await sendSample(t, operation);
      expect({ operation, status: response.status }).toEqual({ operation, status: expect.any(Number) });
      expect(
        Object.keys(MARKET_ROUTES[operation].answers).map(Number),
        `${operation}: ${await response.text()}`,
      ).toContain(response.status);
    }
  });
});
