/**
 * Issue 10, reproductions 5 and 7 and the framework error mapping: an absolute-form request
 * target routes like its path (no `Invalid URL` 500), Node's parser refusals and timeouts are
 * answered as problem documents, and framework errors map to problems without their messages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { kitErrorOfFramework } from '../src/market/framework-error.js';
import { answerClientError } from '../src/node/client-error.js';
import { createNodeListener } from '../src/node/listener.js';
import { pathAndQuery } from '../src/node/to-request.js';
import { makeMarket } from './market-support.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes, resolves with everything the server answered before closing. */
function raw(port: number, text: string, keepOpen = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    if (!keepOpen) socket.on('end', () => socket.end());
  });
}

describe('absolute-form request targets', () => {
  it.each([
    ['http://x/v1/orders?a=1', '/v1/orders?a=1'],
    ['/v1/orders', '/v1/orders'],
    ['*', '/'],
    ['http://[bad', '/'],
    [undefined, '/'],
  ])('keep only path and query: %s is read as %s', (target, path) => {
    expect(pathAndQuery(target)).toBe(path);
  });

  it('are answered like their path through the Node bridge (401 without credentials, not 500)', async () => {
    const { market } = await makeMarket();
    const port = await listen(createServer(createNodeListener(market)));
    const answer = await raw(
      port,
      'POST http://x/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('application/problem+json');
  });
});

describe('answerClientError', () => {
  it('answers a request whose body does not arrive in time with a 408 problem', async () => {
    const server = createServer(
      { requestTimeout: 300, headersTimeout: 200, connectionsCheckingInterval: 50 },
      () => {
        // Never answers: the body never completes.
      },
    );
    server.on('clientError', answerClientError);
    const port = await listen(server);
    const answer = await raw(
      port,
      'POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a"',
      true,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 408, code: 'request_timeout' });
  });

  it('answers bytes that are not HTTP and oversized headers with problems', async () => {
    const server = createServer({ maxHeaderSize: 1024 }, (_req, res) => res.end());
    server.on('clientError', answerClientError);
    const port = await listen(server);
    expect(await raw(port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 [\s\S]*"code":"validation_failed"/,
    );
    const big = await raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 [\s\S]*"code":"headers_too_large"/);
  });
});

describe('kitErrorOfFramework', () => {
  it.each([
    [400, 'validation_failed'],
    [404, 'not_found'],
    [405, 'method_not_allowed'],
    [408, 'request_timeout'],
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
    [431, 'headers_too_large'],
  ])('answers a framework %i as a %s problem of that status', (status, code) => {
    const error = kitErrorOfFramework(Object.assign(new Error('x'), { status }));
    expect([error.status, error.code]).toEqual([status, code]);
  });

  it('maps framework statuses to problems and never keeps their message', () => {
    const decode = Object.assign(new URIError('Failed to decode param /etc/passwd'), { status: 400 });
    expect(kitErrorOfFramework(decode).toProblem()).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(JSON.stringify(kitErrorOfFramework(decode).toProblem())).not.toContain('passwd');
    expect(kitErrorOfFramework(Object.assign(new Error('x'), { statusCode: 413 })).status).toBe(413);
    expect(kitErrorOfFramework(Object.assign(new Error('x'), { status: 418 })).code).toBe(
      'validation_failed',
    );
    const internal = kitErrorOfFramework(new Error('relation "bnpl_orders" does not exist'));
    expect(internal.status).toBe(500);
    expect(JSON.stringify(internal.toProblem())).not.toContain('bnpl_orders');
    const own = new KitError('store_unavailable', 'down');
    expect(kitErrorOfFramework(own)).toBe(own);
  });
});
