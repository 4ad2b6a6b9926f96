/**
 * Every service call as a span (`bnpl.service <operation>`, retries and token renewal inside it)
 * and two metrics: its duration by outcome and its failures by error code.
 */
import { recordServiceCall } from '../observability/metrics.js';
import { withSpan } from '../observability/telemetry.js';
import type { Call } from './bearer.js';
import type { ServiceOperation } from './routes.js';
import type { CallInput, ResponseOf } from './sender.js';

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'internal';
}

export function traceCalls(call: Call): Call {
  return <Op extends ServiceOperation>(operation: Op, input: CallInput): Promise<ResponseOf<Op>> => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    return withSpan(`bnpl.service ${operation}`, { 'bnpl.operation': operation }, () =>
      call(operation, input),
    ).then(
      (result) => {
        recordServiceCall(operation, undefined, seconds());
        return result;
      },
      (error: unknown) => {
        recordServiceCall(operation, codeOf(error), seconds());
        throw error;
      },
    );
  };
}
