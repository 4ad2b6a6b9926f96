/** Faults the sandbox injects into the service, and its record of the calls the market made. */
import type { ContractSandbox, ServiceCallView } from './driver.js';
import type { SandboxClient } from './sandbox-client.js';
import { recordsIn, serviceCallView } from './views.js';

export type ServiceCallRecords = Pick<
  ContractSandbox,
  'injectFault' | 'clearFaults' | 'serviceCalls' | 'lastCallId' | 'refusedCalls'
>;

export function serviceCallRecords(client: SandboxClient): ServiceCallRecords {
  const allCalls = async () => recordsIn(await client.admin('GET', '/sandbox/calls'), 'calls');

  async function serviceCalls(sinceId = 0): Promise<ServiceCallView[]> {
    return (await allCalls())
      .filter((c) => c.kind === 'service' && Number(c.id) > sinceId)
      .map(serviceCallView);
  }

  return {
    async injectFault(fault) {
      await client.admin(
        'POST',
        '/sandbox/faults',
        'operation' in fault ? { target: 'route', ...fault } : { target: 'webhook', ...fault },
      );
    },
    async clearFaults() {
      await client.call('DELETE', '/sandbox/faults');
    },
    serviceCalls,
    async lastCallId() {
      const calls = await allCalls();
      return calls.length === 0 ? 0 : Number(calls.at(-1)!.id);
    },
    async refusedCalls(sinceId) {
      return (await serviceCalls(sinceId)).filter((c) => c.status >= 400 && c.fault === undefined);
    },
  };
}
