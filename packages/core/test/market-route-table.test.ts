/**
 * The market route table is the one list of endpoints: the router serves exactly its routes per
 * integration mode and run mode, and the OpenAPI documents describe exactly the same ones. A route
 * added anywhere else (a hand-written OpenAPI path, a route the table lacks) fails here.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../src/market/memory-store.js';
import { DEFAULT_PATHS } from '../src/market/options.js';
import {
  MARKET_OPERATIONS,
  MARKET_ROUTES,
  marketOperationsFor,
  marketRoutePath,
} from '../src/market/route-table.js';
import type { IntegrationMode } from '../src/models/config.js';
import { marketOpenApi, openApiPath } from '../src/openapi/market.js';
import { call, makeMarket } from './market-support.js';

const CASES = (['basic', 'data-sharing'] as const).flatMap((integrationMode) =>
  (['sandbox', 'production'] as const).map((mode) => ({ integrationMode, mode })),
);

/** A concrete request path: `:id` filled with a harmless value. */
const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, 'o1');

describe('market route table', () => {
  it.each(CASES)('the router serves exactly the table in $integrationMode / $mode', async (modes) => {
    // Production refuses a store that is not durable; this one only says it is, for routing alone.
    const durable = { ...createMemoryStore(), durable: true } as unknown as MemoryStore;
    const { market } = await makeMarket({
      config: { ...modes, ...(modes.mode === 'production' && { publicBaseUrl: 'https://market.example' }) },
      ...(modes.mode === 'production' && { store: durable }),
    });
    const served = marketOperationsFor(modes.integrationMode as IntegrationMode, modes.mode);
    for (const name of MARKET_OPERATIONS) {
      const definition = MARKET_ROUTES[name];
      const path = concrete(marketRoutePath(definition, DEFAULT_PATHS));
      const response = await call(market, path, { method: definition.method });
      const code = response.status === 404 ? ((await response.json()) as { code: string }).code : undefined;
      // An unserved route is the router's not_found; a served one answers anything else.
      if (served.includes(name)) expect(code, `${name} should be served`).not.toBe('not_found');
      else expect(code, `${name} should not be served`).toBe('not_found');
    }
  });

  it.each(CASES)('the OpenAPI document has exactly the table in $integrationMode / $mode', (modes) => {
    const document = marketOpenApi(modes);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([verb, op]) => `${verb.toUpperCase()} ${path} ${op?.operationId}`),
    );
    const expected = marketOperationsFor(modes.integrationMode, modes.mode).map((name) => {
      const definition = MARKET_ROUTES[name];
      return `${definition.method} ${openApiPath(marketRoutePath(definition, DEFAULT_PATHS))} ${name}`;
    });
    expect(documented.sort()).toEqual(expected.sort());
  });

  it('documents every problem a route answers under its status', () => {
    const document = marketOpenApi({ integrationMode: 'data-sharing' });
    const create = document.paths['/v1/orders']!.post!;
    expect(create.responses['409']!.description).toBe('Problem: idempotency_conflict');
    expect(create.responses['401']!.description).toBe('Problem: unauthenticated');
  });

  it('documents the two order actions (cancel, disburse) alike but for the body disburse takes', () => {
    const document = marketOpenApi({ integrationMode: 'data-sharing' });
    const cancel = document.paths['/v1/orders/{id}/cancel']!.post!;
    const disburse = document.paths['/v1/orders/{id}/disburse']!.post!;
    expect(Object.keys(cancel.responses).sort()).toEqual(Object.keys(disburse.responses).sort());
    expect(cancel.responses['202']).toEqual(disburse.responses['202']);
    expect(cancel.responses['409']!.description).toBe('Problem: invalid_transition, conflict');
    expect(cancel.parameters).toEqual(disburse.parameters);
    expect(cancel.security).toEqual(disburse.security);
    expect(cancel.requestBody).toBeUndefined();
    expect(disburse.requestBody).toMatchObject({ required: false });
    expect(disburse.description).toContain('getDisbursementInvoice');
    expect(cancel.description).not.toContain('getDisbursementInvoice');
  });
});
