/**
 * The demo under test: the real reference server (the code `pnpm start` runs), in-process on an
 * ephemeral port of 127.0.0.1, with an in-memory PGlite, a temporary data directory for its sandbox
 * keys, and the embedded sandbox, whose hosted pages the SDK opens and whose admin API plays the
 * provider. Its logs are kept and printed only when the start fails.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogger,
  type StartReferenceServerOptions,
  startReferenceServer,
} from '@bnpl-kit/reference-server';
import type { DemoTarget } from './flows.js';

// Two adapters, so the browser flows also cross two frameworks (webhooks go through them).
const FRAMEWORK = { basic: 'express', 'data-sharing': 'koa' } as const;

export async function startDemo(
  mode: 'basic' | 'data-sharing',
  /** More server options, e.g. the console Certification page's `only`. */
  extra: Pick<StartReferenceServerOptions, 'consoleCertification'> = {},
): Promise<DemoTarget> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bnpl-e2e-'));
  const logs: string[] = [];
  try {
    const server = await startReferenceServer({
      integrationMode: mode,
      name: `${mode}-server`,
      defaults: { port: 0, dataDir },
      env: { MODE: 'sandbox', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FRAMEWORK: FRAMEWORK[mode] },
      logger: createLogger({ level: 'warn', destination: { write: (line: string) => void logs.push(line) } }),
      storeOptions: { memory: true },
      ...extra,
    });
    if (!server.shopUrl || !server.embedded) throw new Error('the reference server serves no demo shop');
    return {
      url: server.publicBaseUrl,
      serviceUrl: server.embedded.serviceUrl,
      logs,
      stopDatabase: () => server.store.close(),
      async close() {
        await server.close().catch(() => {});
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(
      `The ${mode} reference server did not start: ${(error as Error).message}\n${logs.join('')}`,
    );
  }
}
