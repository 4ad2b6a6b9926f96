/**
 * The one HTTP request the service client makes per attempt, reduced to what it needs back: the
 * status and the body as text. Two ways to make it: the runtime's (or an injected) fetch, here,
 * and Node's own http client (node-http-call.ts), which costs a fraction of fetch's CPU per call
 * on Node. `exchange` (transport.ts) owns the timeout and what the answer means; a call only has
 * to end, with the signal's reason, as soon as the signal aborts.
 */

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborts the whole call, headers and body: the call rejects with `signal.reason`. */
  signal: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  /** Decoded as UTF-8 (a byte-order mark dropped, malformed bytes replaced), as `Response.text()`. */
  text: string;
}

export type HttpCall = (request: HttpRequest) => Promise<HttpAnswer>;

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * A call through `fetchImpl`. `honoursSignal` says it is the runtime's own fetch, which rejects
 * both the call and the body read with the signal's reason once it aborts; any other (a test
 * double, a wrapper) may ignore the signal or not tie the body stream to it, so it is raced.
 */
export function fetchCall(fetchImpl: typeof fetch, honoursSignal: boolean): HttpCall {
  return async ({ method, url, headers, body, signal }) => {
    const sent = fetchImpl(url, { method, headers, body, signal });
    const response = await (honoursSignal ? sent : untilAborted(sent, signal));
    const text = await (honoursSignal ? response.text() : untilAborted(response.text(), signal));
    return { status: response.status, text };
  };
}
