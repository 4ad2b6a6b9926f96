/**
 * Issue 34: `next start` with `drainOnSignals` exited 143 on SIGTERM (Next's own handler exits at
 * once). The built app, started as the README says (`next start`, NEXT_MANUAL_SIG_HANDLE=true),
 * now drains: /readyz answers 503 for DRAIN_GRACE_MS while market requests are still served, then
 * the request still in flight (a webhook whose body is still arriving) gets its answer, new ones are
 * refused with 503, the worker stops, the store closes, and the process exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bnpl-kit/test-ports';
import { afterAll, expect, it } from 'vitest';

const APP = fileURLToPath(new URL('..', import.meta.url));
const NEXT_BIN = createRequire(import.meta.url).resolve('next/dist/bin/next');
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Answer {
  status: number;
  body: string;
}

/** One request on a fresh connection; the error code when it got no answer. */
function send(url: string, init: { method?: string; body?: string } = {}): Promise<Answer | string> {
  return new Promise((resolve) => {
    const req = request(url, { method: init.method ?? 'GET', agent: false }, (res) => answerOf(res, resolve));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end(init.body);
  });
}

function answerOf(res: import('node:http').IncomingMessage, resolve: (answer: Answer) => void): void {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    body += chunk;
  });
  res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
}

/** Asks until `done` holds for an answer (no fixed waits); fails after 60 s. */
async function poll(ask: () => Promise<Answer | string>, done: (answer: Answer | string) => boolean) {
  const until = Date.now() + 60_000;
  for (;;) {
    const answer = await ask();
    if (done(answer)) return answer;
    if (Date.now() > until) throw new Error(`still ${JSON.stringify(answer)} after 60 s`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const statusOf = (answer: Answer | string) => (typeof answer === 'string' ? answer : answer.status);

it('drains on SIGTERM: /readyz 503 first, the request in flight answered, exit code 0', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'bnpl-next-drain-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const server: ChildProcess = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: APP,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        NEXT_MANUAL_SIG_HANDLE: 'true',
        DATA_DIR: dataDir,
        DRAIN_GRACE_MS: '2000',
        PUBLIC_BASE_URL: `${base}/bnpl`,
        // The worker runs (and stops in the drain); nothing answers there, which it only logs.
        SERVICE_API_URL: 'http://127.0.0.1:9',
        APP_API_KEY: 'test-app-api-key-of-the-drain-test',
        // Webhooks are checked against this key: the unsigned one below is refused without a network call.
        SERVICE_PUBLIC_KEY: generateKeyPairSync('ed25519')
          .publicKey.export({ type: 'spki', format: 'pem' })
          .toString(),
        MARKET_API_TOKEN: 'test-market-api-token-of-the-drain-test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  cleanups.push(() => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  });

  // Started: the first /readyz builds the store, market and worker.
  await poll(
    () => send(`${base}/readyz`),
    (answer) => statusOf(answer) === 200 || server.exitCode !== null,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; the server said:\n${output}`);
  });
  expect(server.exitCode, output).toBeNull();

  // A webhook whose body is still arriving: in flight across the whole drain.
  const webhook = `${base}/bnpl/v1/webhook`;
  let inFlight!: ClientRequest;
  const inFlightAnswer = new Promise<Answer | string>((resolve) => {
    inFlight = request(
      webhook,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': '2' },
      },
      (res) => answerOf(res, resolve),
    );
    inFlight.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
  inFlight.write('{');
  inFlight.flushHeaders();

  server.kill('SIGTERM');
  // Readiness goes 503 at once, while market requests are still answered by the market.
  await poll(
    () => send(`${base}/readyz`),
    (answer) => statusOf(answer) === 503,
  );
  const duringGrace = await send(`${base}/bnpl/v1/offers/filter`, { method: 'POST', body: '{}' });
  expect(statusOf(duringGrace)).not.toBe(503);
  expect(typeof duringGrace === 'string' ? duringGrace : duringGrace.body).not.toContain('Shutting down');

  // After the grace the drain waits for the request in flight and refuses new ones.
  await poll(
    () => send(`${base}/bnpl/v1/offers/filter`, { method: 'POST', body: '{}' }),
    (answer) => typeof answer !== 'string' && answer.body.includes('Shutting down'),
  );
  expect(server.exitCode).toBeNull();
  inFlight.end('}');
  const answered = await inFlightAnswer;
  // The market's own answer (an unsigned webhook is refused), not a lost connection or a 503.
  expect(typeof answered, String(answered)).toBe('object');
  expect(statusOf(answered)).toBeGreaterThanOrEqual(400);
  expect(statusOf(answered), `${JSON.stringify(answered)}\n${output}`).toBeLessThan(500);

  expect(await exited, output).toBe(0);
}, 120_000);
