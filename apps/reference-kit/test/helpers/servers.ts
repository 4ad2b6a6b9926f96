/**
 * Starting reference servers in-process for the tests: ephemeral port on 127.0.0.1, a temporary
 * data directory, and a pino logger whose lines the test can read back (to prove secrets never
 * reach the log).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IntegrationMode } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';
import {
  createLogger,
  type FrameworkName,
  type ReferenceServer,
  type StartReferenceServerOptions,
  startReferenceServer,
} from '../../src/index.js';

export interface TestServer extends ReferenceServer {
  logs: string[];
  dataDir: string;
}

export async function tempDir(prefix = 'bnpl-ref-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export interface TestServerOptions {
  mode: IntegrationMode;
  framework?: FrameworkName;
  env?: Record<string, string | undefined>;
  store?: Store;
  dataDir?: string;
  extra?: Partial<StartReferenceServerOptions>;
}

export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDir());
  const logs: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void logs.push(line) },
    base: { server: `test-${options.mode}` },
  });
  const server = await startReferenceServer({
    integrationMode: options.mode,
    name: `${options.mode}-server`,
    defaults: { port: 0, dataDir },
    env: {
      MODE: 'sandbox',
      PORT: '0',
      FRAMEWORK: options.framework ?? 'hono',
      DATA_DIR: dataDir,
      ...options.env,
    },
    logger,
    worker: { minIdleMs: 20, maxIdleMs: 200 },
    ...(options.store ? { store: options.store } : { storeOptions: { memory: true } }),
    ...options.extra,
  });
  return Object.assign(server, { logs, dataDir });
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
