/** Faults the sandbox injects into the service, and its record of the calls the market made. */
import type { ContractSandbox, ServiceCallView } from './driver.js';
import type { SandboxClient } from './sandbox-client.js';
import { recordsIn, serviceCallView } from './views.js';

export type ServiceCallRecords = Pick<
  ContractSandbox,
  'injectFault' | 'clearFaults' | 'faultsRemaining' | 'serviceCalls' | 'lastCallId' | 'refusedCalls'
>;

export function serviceCallRecords(client: SandboxClient): ServiceCallRecords {
  // The sandbox keeps every run's calls (a shared one, all adapters' runs): ask for the few that
  // matter, and still filter here, as a sandbox that ignores the query answers with all of them.
  const callsIn = async (query: string) =>
    recordsIn(await client.admin('GET', `/sandbox/calls?${query}`), 'calls');

  async function serviceCalls(sinceId = 0): Promise<ServiceCallView[]> {
    return (await callsIn(`after=${sinceId}`))
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
    async faultsRemaining() {
      // A fault is taken when its call arrives (a `delay` holds that call afterwards).
      return recordsIn(await client.admin('GET', '/sandbox/faults'), 'faults').reduce(
        (sum, fault) => sum + (typeof fault.remaining === 'number' ? fault.remaining : 0),
        0,
      );
    },
    serviceCalls,
    async lastCallId() {
      const calls = await callsIn('limit=1');
      return calls.length === 0 ? 0 : Number(calls.at(-1)!.id);
    },
    async refusedCalls(sinceId) {
      return (await serviceCalls(sinceId)).filter((c) => c.status >= 400 && c.fault === undefined);
    },
  };
}
