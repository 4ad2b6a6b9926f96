/**
 * A market may answer before it has read the request body and close the connection (RFC 9110
 * §15.5.14: a 413 for an oversized body; workerd does this). The client's write of the rest then
 * fails with EPIPE/ECONNRESET while the answer waits on the socket, and whichever of the two the
 * client notices first used to decide the outcome. Made deterministic here: the market runs in a
 * worker thread and certify's thread blocks, once its request is under way, until the market has
 * answered and reset the connection, so the failed write and the answer are both there to see.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractHttp } from '../src/http.js';

/** The market: reads the head and the first piece of the body, then answers (or not) and resets. */
const MARKET = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { done, answers } = workerData;
const server = createServer((req, res) => {
  req.once('data', () => {
    req.pause();
    // The body unread, so closing the socket resets the connection.
    const reset = () => { req.socket.destroy(); Atomics.store(done, 0, 1); Atomics.notify(done, 0); };
    if (!answers) return reset();
    // No \`Connection: close\`: certify must still not keep this connection for the next request.
    res.writeHead(413, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ status: 413, code: 'payload_too_large' }), reset);
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

const started: { worker: Worker; stopBlocking: () => void }[] = [];

afterEach(async () => {
  for (const { worker, stopBlocking } of started.splice(0)) {
    stopBlocking();
    await worker.terminate();
  }
});

/**
 * Starts the market; once certify's connection to it is up and the request is going out, certify's
 * thread waits for the market's reset (an event, with a bound only against a hang).
 */
async function earlyMarket(answers: boolean): Promise<{ url: string; armed: (on: boolean) => void }> {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(MARKET, { eval: true, workerData: { done, answers } });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  let armed = false;
  const onSocket = (message: unknown) => {
    if (!armed) return;
    const { socket } = message as { socket: Socket };
    socket.once('connect', () =>
      setImmediate(() => {
        Atomics.wait(done, 0, 0, 10_000);
        Atomics.store(done, 0, 0);
      }),
    );
  };
  subscribe('net.client.socket', onSocket);
  started.push({ worker, stopBlocking: () => unsubscribe('net.client.socket', onSocket) });
  return {
    url: `http://127.0.0.1:${port}/orders`,
    armed: (on) => {
      armed = on;
    },
  };
}

/** Four times a 1 MiB limit: far more than the connection takes before the market's reset. */
const oversized = JSON.stringify({ padding: 'x'.repeat(4 * 1024 * 1024) });

describe('a market that answers before reading the body, and resets the connection', () => {
  it("reads the market's 413 though the rest of the body cannot be written", async () => {
    const market = await earlyMarket(true);
    const http = new ContractHttp({ timeoutMs: 20_000 });
    // Several times: each is the same sequence of events, not a different timing.
    for (let i = 0; i < 5; i++) {
      market.armed(true);
      const answer = await http.send(market.url, {
        method: 'POST',
        body: oversized,
        headers: { 'content-type': 'application/json' },
      });
      market.armed(false);
      expect(answer.status).toBe(413);
      expect(answer.mediaType()).toBe('application/problem+json');
      expect(answer.json()).toEqual({ status: 413, code: 'payload_too_large' });
    }
  });

  it('reports a market that resets without answering as before: no answer, the connection closed', async () => {
    const market = await earlyMarket(false);
    const http = new ContractHttp({ timeoutMs: 20_000 });
    market.armed(true);
    await expect(
      http.send(market.url, {
        method: 'POST',
        body: oversized,
        headers: { 'content-type': 'application/json' },
      }),
    ).rejects.toThrow(
      /expected an HTTP answer from POST .* within 20000 ms; got no answer \(Error: .*ECONNRESET.*\); the market closed the connection without a complete answer/,
    );
    expect(http.exchanges).toEqual([]);
  });
});
