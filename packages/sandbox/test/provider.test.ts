/** Provider actions, the effects of revert and disburse, and the scripted "auto" scenario. */
import { isKitError } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { type createManualClock, createSandbox, type SandboxOptions } from '../src/index.js';
import { directClient, marketOrg, orderInput, startSandbox } from './support.js';

function setup(options: SandboxOptions = {}) {
  const started = startSandbox(options);
  const statuses = () => started.market.payloads().map((p) => p.order_status ?? p.type);
  return { ...started, statuses };
}

describe('provider actions', () => {
  it('approve, readiness by status only, mark paid', async () => {
    const { sandbox, client, statuses } = setup();
    const { id } = await client.createOrder(orderInput());
    sandbox.orders.approve(id);
    sandbox.orders.confirmReadiness(id, 'status');
    sandbox.orders.markPaid(id);
    await sandbox.webhooks.idle();
    expect(statuses()).toEqual(['APPROVED', 'DISBURSING', 'PAID']);
    expect(sandbox.orders.get(id)?.history.map((h) => h.status)).toEqual([
      'PENDING',
      'APPROVED',
      'DISBURSING',
      'PAID',
    ]);
    expect(sandbox.disbursements()).toMatchObject([{ orderId: id, source: 'provider' }]);
  });

  it('readiness by the requirement event only leaves the order APPROVED but ready', async () => {
    const { sandbox, client, market } = setup();
    const { id } = await client.createOrder(orderInput());
    sandbox.orders.approve(id);
    sandbox.orders.confirmReadiness(id, 'requirement');
    await sandbox.webhooks.idle();
    expect(market.payloads()[1]).toEqual({
      type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
      order_id: id,
      is_fulfilled: true,
    });
    expect(sandbox.orders.get(id)).toMatchObject({ status: 'APPROVED', readyForDisbursement: true });
  });

  it('reject cancels a pending order; actions out of order are refused', async () => {
    const { sandbox, client, statuses } = setup();
    const { id } = await client.createOrder(orderInput());
    expect(() => sandbox.orders.markPaid(id)).toThrow(/PENDING/);
    sandbox.orders.reject(id);
    expect(() => sandbox.orders.approve(id)).toThrow(/CANCELED/);
    await sandbox.webhooks.idle();
    expect(statuses()).toEqual(['CANCELED']);
  });
});

describe("the market's calls", () => {
  it('revert goes straight to CANCELED by default and is idempotent', async () => {
    const { sandbox, client, statuses } = setup();
    const { id } = await client.createOrder(orderInput());
    sandbox.orders.approve(id);
    expect((await client.cancelOrder(id)).orderStatus).toBe('CANCELED');
    expect((await client.cancelOrder(id, { idempotencyKey: 'another' })).orderStatus).toBe('CANCELED');
    await sandbox.webhooks.idle();
    expect(statuses()).toEqual(['APPROVED', 'CANCELED']);
  });

  it('revert can pass through CANCELING', async () => {
    const { sandbox, client, statuses } = setup({ cancelVia: 'canceling', cancelSettleMs: 2000 });
    const { id } = await client.createOrder(orderInput());
    sandbox.orders.approve(id);
    expect((await client.cancelOrder(id)).orderStatus).toBe('CANCELING');
    await sandbox.tick(2000);
    expect(sandbox.orders.get(id)?.status).toBe('CANCELED');
    expect(statuses()).toEqual(['APPROVED', 'CANCELING', 'CANCELED']);
  });

  it('revert of a paid order is a conflict', async () => {
    const { sandbox, client } = setup();
    const { id } = await client.createOrder(orderInput());
    sandbox.orders.approve(id);
    sandbox.orders.markPaid(id);
    await expect(client.cancelOrder(id)).rejects.toSatisfy((e) => isKitError(e, 'conflict'));
  });

  it('disburse pays once even when called twice with different keys', async () => {
    const { sandbox, client, statuses } = setup({ disburseVia: 'disbursing' });
    const { id } = await client.createOrder(orderInput());
    sandbox.orders.approve(id);
    await client.disburseOrder(id, {}, { idempotencyKey: 'first' });
    expect((await client.disburseOrder(id, {}, { idempotencyKey: 'second' })).orderStatus).toBe('PAID');
    expect(sandbox.disbursements()).toHaveLength(1);
    await sandbox.webhooks.idle();
    expect(statuses()).toEqual(['APPROVED', 'DISBURSING', 'PAID']);
  });

  it('another organisation cannot see or move the order', async () => {
    const { sandbox, client } = setup({
      organizations: [marketOrg(), { id: 'org-other', apiKeys: ['sk_other_key_123'] }],
    });
    const { id } = await client.createOrder(orderInput());
    const other = directClient(sandbox, { apiKey: 'sk_other_key_123' });
    await expect(other.getOrder(id)).rejects.toSatisfy((e) => isKitError(e, 'order_not_found'));
    await expect(other.cancelOrder(id)).rejects.toSatisfy((e) => isKitError(e, 'order_not_found'));
  });
});

describe('the auto scenario', () => {
  it('approves after N ms and confirms readiness M ms later, on the sandbox clock', async () => {
    const { sandbox, client, statuses } = setup({
      auto: { approveAfterMs: 1000, readyAfterMs: 500, readyVia: 'status' },
    });
    const { id } = await client.createOrder(orderInput());
    await sandbox.tick(999);
    expect(sandbox.orders.get(id)?.status).toBe('PENDING');
    await sandbox.tick(1);
    expect(sandbox.orders.get(id)?.status).toBe('APPROVED');
    await sandbox.tick(500);
    expect(sandbox.orders.get(id)?.status).toBe('DISBURSING');
    expect(statuses()).toEqual(['APPROVED', 'DISBURSING']);
  });

  it('marks paid after readiness when asked (basic mode), and steps aside when the market moves first', async () => {
    const { sandbox, client } = setup({ auto: { approveAfterMs: 10, readyAfterMs: 10, paidAfterMs: 10 } });
    const first = await client.createOrder(orderInput('a'));
    const second = await client.createOrder(orderInput('b'));
    await sandbox.tick(10);
    await client.cancelOrder(second.id);
    await sandbox.tick(100);
    expect(sandbox.orders.get(first.id)?.status).toBe('PAID');
    expect(sandbox.orders.get(second.id)?.status).toBe('CANCELED');
  });

  it('stops with close()', async () => {
    const { sandbox, client } = setup({ auto: { approveAfterMs: 10 } });
    const { id } = await client.createOrder(orderInput());
    sandbox.close();
    await (sandbox.clock as ReturnType<typeof createManualClock>).advance(100);
    expect(sandbox.orders.get(id)?.status).toBe('PENDING');
  });

  it('tick() needs a manual clock', async () => {
    const real = createSandbox();
    await expect(real.tick(1)).rejects.toThrow(/manual clock/);
    real.close();
  });
});
