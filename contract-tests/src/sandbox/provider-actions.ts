/** The orders the sandbox holds and the provider's buttons on them (approve, reject, ready, paid). */
import type { ContractSandbox } from './driver.js';
import { type SandboxClient, SandboxRequestError } from './sandbox-client.js';
import { orderView, recordsIn } from './views.js';

export type ProviderActions = Pick<
  ContractSandbox,
  'order' | 'ordersByReference' | 'approve' | 'reject' | 'ready' | 'paid' | 'disbursements'
>;

export function providerActions(client: SandboxClient): ProviderActions {
  const press = async (orderId: string, button: string, body: Record<string, string> = {}) => {
    await client.admin('POST', `/sandbox/orders/${encodeURIComponent(orderId)}/${button}`, body);
  };
  const order: ProviderActions['order'] = async (id) => {
    const answer = await client.call('GET', `/sandbox/orders/${encodeURIComponent(id)}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new SandboxRequestError(`Sandbox order ${id}: ${answer.status}`);
    return orderView(answer.json);
  };
  return {
    order,
    async ordersByReference(referenceId) {
      // Filtered at the sandbox (it holds every run's orders) and here (one that ignores the query).
      const json = await client.admin(
        'GET',
        `/sandbox/orders?${new URLSearchParams({ reference_id: referenceId })}`,
      );
      return recordsIn(json, 'orders')
        .map(orderView)
        .filter((o) => o.referenceId === referenceId);
    },
    approve: (orderId) => press(orderId, 'approve'),
    reject: (orderId) => press(orderId, 'reject'),
    ready: (orderId) => press(orderId, 'ready', { via: 'status' }),
    async paid(orderId) {
      // Not "read the status, then press": the market's own disbursement can land in between.
      const answer = await client.call('POST', `/sandbox/orders/${encodeURIComponent(orderId)}/paid`, {});
      if (answer.status < 300) return;
      if (answer.status === 409 && (await order(orderId))?.status === 'PAID') return;
      throw new SandboxRequestError(
        `Sandbox POST /sandbox/orders/${orderId}/paid answered ${answer.status}: ${answer.text.slice(0, 300)}`,
      );
    },
    async disbursements(orderId) {
      const json = await client.admin(
        'GET',
        `/sandbox/disbursements?${new URLSearchParams({ order_id: orderId })}`,
      );
      return recordsIn(json, 'disbursements').filter((d) => d.order_id === orderId).length;
    },
  };
}
