/**
 * `runReferenceServer` owns SIGINT/SIGTERM from before its start: a signal that arrives while the
 * database initialises (or while the banner prints) still closes the server once it is up, instead
 * of killing the process mid-write or being missed.
 */
import { get } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runReferenceServer } from '../src/index.js';
import { removeDir, tempDir } from './helpers/servers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

describe('runReferenceServer signals', () => {
  it('closes the server when SIGTERM arrived during the start', async () => {
    const dataDir = await tempDir();
    cleanups.push(() => removeDir(dataDir));
    // Stubbed and unstubbed in place: replacing process.env by a copy would leave the worker a plain
    // object where Node's live environment was.
    for (const [name, value] of Object.entries({
      MODE: 'sandbox',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    }))
      vi.stubEnv(name, value);
    cleanups.push(() => {
      vi.unstubAllEnvs();
    });
    // The shutdown ends with process.exit(0) on a timer: keep the test worker alive.
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
    expect(ours).toHaveLength(1);
    process.emit('SIGTERM', 'SIGTERM'); // as Node delivers it: the signal's name as argument

    const server = await running;
    expect(server).toBeDefined();
    cleanups.push(() => server!.close());
    await vi.waitFor(
      async () => {
        // A fresh connection each time: a kept-alive one would be served while draining.
        const answered = await new Promise<boolean>((resolve) => {
          get(`${server!.url}/healthz`, { agent: false }, (res) => {
            res.resume();
            resolve(true);
          }).on('error', () => resolve(false));
        });
        expect(answered).toBe(false);
      },
      { timeout: 200_000, interval: 50 }, // a hang, never a slow machine (30 s is not enough under load)
    );
  });
});
