/**
 * A reference server (apps/basic-server or apps/data-sharing-server, `src/main.ts` as it is) run
 * whole by Bun or Deno from their npm binaries: TypeScript straight from the sources (`--conditions
 * source`; Deno also needs `--sloppy-imports`, the sources import `./x.js` for `./x.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { binaryOf } from './runtimes.js';

const APPS = fileURLToPath(new URL('../../../apps/', import.meta.url));

export interface ReferenceServerRun {
  /** From the `listening` log line. */
  url: string;
  /** The sandbox keys the server generated and kept in `DATA_DIR/keys.json`. */
  keys: { APP_ID: string; APP_API_KEY: string; MARKET_API_TOKEN: string; SANDBOX_SIGNING_KEY: string };
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, and resolves with the exit code once it exited. */
  stop(): Promise<number | string>;
}

export async function runReferenceServer(
  runtime: 'bun' | 'deno',
  mode: 'basic' | 'data-sharing',
  env: Record<string, string>,
): Promise<ReferenceServerRun> {
  const args =
    runtime === 'bun'
      ? ['--conditions=source', 'src/main.ts']
      : ['run', '-A', '--sloppy-imports', '--conditions=source', 'src/main.ts'];
  const child: ChildProcess = spawn(binaryOf(runtime), args, {
    cwd: join(APPS, `${mode}-server`),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? signal ?? -1));
  });
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    text += `${line}\n`;
    if (!line.startsWith('{')) continue;
    const log = JSON.parse(line) as { msg?: string; url?: string };
    if (log.msg === 'listening') {
      url = log.url;
      break;
    }
  }
  // Keep draining stdout so the server never blocks on a full pipe.
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stdout!.resume();
  if (!url) throw new Error(`${runtime} ${mode}-server exited (${await exited}) before listening:\n${text}`);
  const keys = JSON.parse(await readFile(join(env.DATA_DIR!, 'keys.json'), 'utf8'));
  return {
    url,
    keys,
    output: () => text,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
