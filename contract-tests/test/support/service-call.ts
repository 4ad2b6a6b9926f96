/** A service call as the sandbox's call log shows it, for tests of the checks' call counting. */
import type { ServiceCallView } from '../../src/sandbox/driver.js';

let nextId = 1;

/** A call of `operation` answered `status`, numbered after the previous one (and as late). */
export function serviceCall(
  operation: string,
  status: number,
  extra: Partial<ServiceCallView> = {},
): ServiceCallView {
  const id = nextId++;
  return {
    id,
    at: id,
    operation,
    method: 'POST',
    path: `/v1/${operation}`,
    status,
    idempotencyKey: undefined,
    body: undefined,
    fault: undefined,
    responseBody: undefined,
    ...extra,
  };
}
