/**
 * The market requests in flight, so SIGTERM's drain waits for them before the store closes. Next's
 * listener is not ours to close: a request arriving once the wait has begun is refused with a 503
 * instead of reaching a store about to close.
 */
import { processWide } from './process-wide';

const requests = processWide('requests', () => ({
  inFlight: 0,
  closing: false,
  idle: undefined as (() => void) | undefined,
}));

/** Runs one request, counted; refused (503, retry elsewhere) once the drain waits for the rest. */
export async function counted(run: () => Promise<Response>): Promise<Response> {
  if (requests.closing) {
    return Response.json(
      {
        type: 'about:blank',
        title: 'Shutting down',
        status: 503,
        detail: 'This instance is draining; retry.',
      },
      {
        status: 503,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '1', connection: 'close' },
      },
    );
  }
  requests.inFlight += 1;
  try {
    return await run();
  } finally {
    requests.inFlight -= 1;
    if (requests.inFlight === 0) requests.idle?.();
  }
}

/** Resolves once no request is in flight; from then on new requests are refused. */
export function requestsDrained(): Promise<void> {
  requests.closing = true;
  if (requests.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    requests.idle = resolve;
  });
}
