/**
 * `ContractHttp.together` (last-byte synchronisation): the racers' requests reach the market at
 * once, however late each racer got to send. The market here records when it has a request's head
 * and when its body is complete; one racer is held back by the test, so without the synchronisation
 * the others' bodies would be complete long before it sends.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollUntil } from '@bnpl-kit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractHttp } from '../src/http.js';
import { createNetworkTransport } from '../src/http-transport.js';

interface Seen {
  heads: number;
  bodies: number;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A market that counts heads and complete requests and answers each with the body it read. */
async function countingMarket(): Promise<{ url: string; seen: Seen }> {
  const seen: Seen = { heads: 0, bodies: 0 };
  const server = createServer((req, res) => {
    seen.heads += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.bodies += 1;
      res.setHeader('content-type', 'text/plain');
      res.end(Buffer.concat(chunks));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/race`, seen };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('requests sent together', () => {
  it('reach the market only once every racer has sent, each whole', async () => {
    const { url, seen } = await countingMarket();
    const http = new ContractHttp();
    const lastMayGo = deferred();
    const body = (i: number) => JSON.stringify({ racer: i, padding: 'x'.repeat(2000) });
    const racing = http.together([
      () => http.send(url, { method: 'POST', body: body(0) }),
      () => http.send(url, { method: 'POST', body: body(1) }),
      async () => {
        await lastMayGo.promise;
        return http.send(url, { method: 'POST', body: body(2) });
      },
    ]);
    // The first two are at the market, heads read, bodies one byte short: nothing to act on yet.
    await pollUntil(async () => (seen.heads === 2 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the first two racers at the market',
    });
    expect(seen.bodies).toBe(0);
    lastMayGo.resolve();
    const answers = await racing;
    expect(answers.map((a) => a.text)).toEqual([body(0), body(1), body(2)]);
    expect(seen).toEqual({ heads: 3, bodies: 3 });
  });

  it('hold a request without a body at its connection: the market sees nothing of it before the others', async () => {
    const { url, seen } = await countingMarket();
    const http = new ContractHttp();
    const lastMayGo = deferred();
    let connected = 0;
    servers[0]!.on('connection', () => {
      connected += 1;
    });
    const racing = http.together([
      () => http.send(url, { method: 'POST' }),
      async () => {
        await lastMayGo.promise;
        return http.send(url, { method: 'POST', body: 'late' });
      },
    ]);
    await pollUntil(async () => (connected === 1 ? true : undefined), {
      timeoutMs: 10_000,
      what: "the first racer's connection",
    });
    expect(seen.heads).toBe(0);
    lastMayGo.resolve();
    expect((await racing).map((a) => [a.status, a.text])).toEqual([
      [200, ''],
      [200, 'late'],
    ]);
  });

  it('do not wait for a racer that failed before sending, and send a racer’s later requests at once', async () => {
    const { url } = await countingMarket();
    const http = new ContractHttp();
    const outcome = await Promise.allSettled([
      http.together([
        () => http.send(url, { method: 'POST', body: 'first' }),
        async () => {
          throw new Error('failed before sending');
        },
      ]),
    ]);
    expect(outcome[0]).toMatchObject({ status: 'rejected', reason: { message: 'failed before sending' } });
    // Its second request is not held: were it, this racer would wait for itself.
    const [texts] = await http.together([
      async () => {
        const first = await http.send(url, { method: 'POST', body: 'one' });
        const second = await http.send(url, { method: 'POST', body: 'two' });
        return [first.text, second.text];
      },
    ]);
    expect(texts).toEqual(['one', 'two']);
  });

  it('are sent as they come over a transport with a connection limit (held, they would wait for each other)', async () => {
    const { url, seen } = await countingMarket();
    const http = new ContractHttp({ transport: createNetworkTransport({ maxSockets: 1 }) });
    const answers = await http.together([
      () => http.send(url, { method: 'POST', body: 'one' }),
      () => http.send(url, { method: 'POST', body: 'two' }),
    ]);
    expect([answers.map((a) => a.text), seen.bodies]).toEqual([['one', 'two'], 2]);
  });

  it('outside a race, are sent as they come', async () => {
    const { url, seen } = await countingMarket();
    const http = new ContractHttp();
    const answer = await http.send(url, { method: 'POST', body: 'alone' });
    expect([answer.text, seen.bodies]).toEqual(['alone', 1]);
  });
});
