/**
 * The README's fault-injection numbers are the admin API's: how many calls a fault affects when
 * `times` is omitted, the most it accepts, and that a dropped delivery is never sent, not even by the
 * retry schedule (only a Replay sends it).
 */
import { readFileSync } from 'node:fs';
import { ORDER_SERVICE_OPERATIONS } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../src/index.js';
import { adminJson, startSandbox } from './support.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const stated = readme.match(
  /`times` is how many calls or deliveries the fault affects: (\d+) when omitted \([^)]*; (\d+) for `reorder`\), at most (\d+)\./,
);

describe('README: fault injection', () => {
  it('states the default and the maximum of `times`', () => {
    expect(stated, 'the README sentence on `times`').not.toBeNull();
  });

  it('names the operations an `order_id` applies to as core declares them (the routes with `:id`)', () => {
    const named = /only calls on one order \(([^)]*)\)/.exec(readme)?.[1];
    expect(named?.split(', ')).toEqual([...ORDER_SERVICE_OPERATIONS]);
  });
  const [byDefault, reorderByDefault, most] = (stated ?? []).slice(1).map(Number) as [number, number, number];

  it.each([
    ['a route fault', { target: 'route', operation: 'getOrder', action: 'error' }],
    ['a webhook drop', { target: 'webhook', action: 'drop' }],
  ])('%s without `times` affects as many calls as the README says', async (_, fault) => {
    const { sandbox } = startSandbox();
    const answer = await adminJson(sandbox, 'POST', '/sandbox/faults', fault);
    expect(answer.status).toBe(201);
    expect(answer.json.remaining).toBe(byDefault);
  });

  it('a reorder without `times` holds as many deliveries as the README says', async () => {
    const { sandbox } = startSandbox();
    const answer = await adminJson(sandbox, 'POST', '/sandbox/faults', {
      target: 'webhook',
      action: 'reorder',
    });
    expect(answer.json.remaining).toBe(reorderByDefault);
  });

  it.each([
    { target: 'route', operation: 'getOrder', action: 'error' },
    { target: 'webhook', action: 'drop' },
  ])('`times` up to the stated maximum is accepted, one more is refused ($target)', async (fault) => {
    const { sandbox } = startSandbox();
    expect((await adminJson(sandbox, 'POST', '/sandbox/faults', { ...fault, times: most })).status).toBe(201);
    const over = await adminJson(sandbox, 'POST', '/sandbox/faults', { ...fault, times: most + 1 });
    expect(over.status).toBe(400);
    expect(over.json.errors[0].path).toBe('times');
  });

  it('a dropped delivery is never sent, through the whole retry schedule; Replay sends a copy', async () => {
    const { sandbox, market } = startSandbox();
    await adminJson(sandbox, 'POST', '/sandbox/faults', { target: 'webhook', action: 'drop' });
    const [dropped] = sandbox.webhooks.emit('org-market', { type: 'CUSTOM' });
    await sandbox.tick(DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) + 60_000);
    await sandbox.webhooks.idle();
    const { json } = await adminJson(sandbox, 'GET', '/sandbox/webhooks/deliveries');
    expect(json.deliveries).toHaveLength(1);
    expect(json.deliveries[0]).toMatchObject({ id: dropped?.id, status: 'dropped', attempts: [] });
    expect(market.received).toEqual([]);

    expect(
      (await adminJson(sandbox, 'POST', `/sandbox/webhooks/deliveries/${dropped?.id}/replay`)).status,
    ).toBe(202);
    await sandbox.webhooks.idle();
    expect(market.received).toHaveLength(1);
  });
});
