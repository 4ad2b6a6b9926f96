/**
 * Web `Response` → `ServerResponse`. Streams the body with backpressure (a slow client pauses the
 * producer instead of growing memory), stops cleanly when the client goes away (the body stream is
 * cancelled, nothing throws), and keeps repeated `Set-Cookie` headers apart.
 */
import type { ServerResponse } from 'node:http';
import type { MarketAnswer } from '../market/answer.js';

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function writeHead(res: ServerResponse, response: Response): void {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  writeHead(res, response);
  const body = response.body;
  if (body === null || res.req?.method === 'HEAD') {
    await body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = body.getReader();
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await waitForDrain(res);
    }
    if (!res.destroyed) res.end();
  } catch {
    // The body stream failed midway: the status is already on the wire, so the only honest
    // signal left is an aborted connection.
    res.destroy();
  } finally {
    res.off('close', onClose);
    reader.releaseLock();
  }
}

/** Writes a market answer (plain status, headers, bytes): one write, with a Content-Length. */
export function sendAnswer(res: ServerResponse, answer: MarketAnswer): void {
  if (res.destroyed) return;
  const body = answer.body;
  const headers: Record<string, string | number> = answer.headers;
  if (body !== null) headers['content-length'] = body.byteLength;
  res.writeHead(answer.status, headers);
  res.end(body === null || res.req?.method === 'HEAD' ? undefined : body);
}
