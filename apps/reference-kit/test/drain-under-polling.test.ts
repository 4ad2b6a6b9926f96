/**
 * Issue 34: on SIGTERM the listener used to close at once, so the "503 while draining" of /readyz
 * was never observed and a balancer polling it kept sending traffic into refused connections. Now
 * readiness answers 503 at once and the server keeps accepting for DRAIN_GRACE_MS: a client that
 * sends requests only while its last /readyz poll said 200 (a balancer) loses none of them. And no
 * request is answered 503 "Starting": requests that arrive during the start wait for the app.
 */
import { get } from 'node:http';
import { freePort } from '@bnpl-kit/test-ports';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runReferenceServer } from '../src/index.js';
import { removeDir, tempDir } from './helpers/servers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
// Not after each test: the SIGTERM shutdown arms a `process.exit(0)` timer (2 s, unref'd) that must
// stay mocked through the rest of the file (which runs in a worker of its own, vitest.config.ts).
afterAll(() => {
  vi.restoreAllMocks();
});

/** One request on a fresh connection (as a balancer opens them): its status, or the error code. */
function fetchStatus(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('SIGTERM under a balancer polling /readyz', () => {
  it('answers /readyz 503 first and keeps serving for the grace period: no request lost', async () => {
    const dataDir = await tempDir();
    cleanups.push(() => removeDir(dataDir));
    for (const [name, value] of Object.entries({
      MODE: 'sandbox',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DRAIN_GRACE_MS: '1500',
    }))
      vi.stubEnv(name, value);
    cleanups.push(() => {
      vi.unstubAllEnvs();
    });
    vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const before = new Set(process.listeners('SIGTERM'));
    const running = runReferenceServer({
      integrationMode: 'basic',
      name: 'basic-server',
      defaults: { port: 0, dataDir },
    });
    const ours = process.listeners('SIGTERM').filter((listener) => !before.has(listener));
    cleanups.push(() => {
      for (const listener of ours) {
        process.off('SIGTERM', listener);
        process.off('SIGINT', listener);
      }
    });
    const server = await running;
    expect(server).toBeDefined();
    cleanups.push(() => server!.close());
    const url = server!.url;

    expect(await fetchStatus(`${url}/readyz`)).toBe(200);
    process.emit('SIGTERM', 'SIGTERM');
    // The balancer: traffic goes out while its last poll said ready; it polls between requests.
    const sent: (number | string)[] = [];
    let readiness = 200 as number | string;
    for (let round = 0; readiness === 200 && round < 10_000; round++) {
      sent.push(await fetchStatus(`${url}/healthz`));
      readiness = await fetchStatus(`${url}/readyz`);
    }
    expect(readiness).toBe(503);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((status) => status !== 200)).toEqual([]);
    // After the grace period the listener closes.
    await vi.waitFor(async () => expect(await fetchStatus(`${url}/healthz`)).toBe('ECONNREFUSED'), {
      timeout: 200_000,
      interval: 50,
    });
  });
});

describe('a request during the start', () => {
  it('is held until the app is installed, never answered 503 "Starting"', async () => {
    const dataDir = await tempDir();
    cleanups.push(() => removeDir(dataDir));
    const port = await freePort();
    for (const [name, value] of Object.entries({
      MODE: 'sandbox',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    }))
      vi.stubEnv(name, value);
    cleanups.push(() => {
      vi.unstubAllEnvs();
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const before = new Set(process.listeners('SIGTERM'));
    const running = runReferenceServer({
      integrationMode: 'basic',
      name: 'basic-server',
      defaults: { port, dataDir },
    });
    const ours = process.listeners('SIGTERM').filter((listener) => !before.has(listener));
    cleanups.push(() => {
      for (const listener of ours) {
        process.off('SIGTERM', listener);
        process.off('SIGINT', listener);
      }
    });
    let started = false;
    void running.then(() => {
      started = true;
    });
    // Knock until the port answers; the first answers may come while the start is still going on.
    const answers: (number | string)[] = [];
    for (let round = 0; round < 100_000; round++) {
      const status = await fetchStatus(`http://127.0.0.1:${port}/healthz`);
      if (status === 'ECONNREFUSED') {
        if (started) break;
        continue;
      }
      answers.push(status);
      if (status === 200) break;
    }
    const server = await running;
    cleanups.push(() => server!.close());
    expect(answers).toEqual([200]);
  });
});
