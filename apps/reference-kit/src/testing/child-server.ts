/**
 * A reference server in a child process, exactly as `pnpm start` runs it (tsx with the "source"
 * condition), for what cannot happen in-process: being killed (SIGKILL) mid-work, restarting,
 * refusing a configuration with exit code 1, shutting down on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildServer {
  process: ChildProcess;
  /** From the `listening` log line. */
  url: string;
  /** The JSON log lines so far. */
  logs: Record<string, unknown>[];
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

export interface SpawnOptions {
  /** The app directory (its `src/main.ts` is run). */
  appDir: string;
  env: Record<string, string | undefined>;
  /** Resolve once exited instead of waiting for `listening` (configuration refusals). */
  expectExit?: boolean;
  timeoutMs?: number;
}

export interface ServerProcess {
  child: ChildProcess;
  exited: Promise<number | string>;
  output(): string;
  logs: Record<string, unknown>[];
}

export function runServerProcess(options: SpawnOptions): ServerProcess {
  // node itself, not the tsx CLI: tsx would run the server in a grandchild that a SIGKILL misses.
  // On PGlite, V8's baseline WebAssembly compiler only, as scripts/start.mjs runs it: the optimising
  // tier costs seconds of CPU at start, which a loaded CI machine turns into a minute.
  const pglite = !options.env.DATABASE_URL;
  const args = [
    ...(pglite ? ['--liftoff-only'] : []),
    '--import',
    'tsx',
    '--conditions=source',
    'src/main.ts',
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.appDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const logs: Record<string, unknown>[] = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    text += `${line}\n`;
    if (line.startsWith('{')) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // A banner line that happens to start with "{": not a log line.
      }
    }
  });
  const exited = new Promise<number | string>((resolve) => {
    // 'close', not 'exit': by then stdout is fully read, so the last log lines are in `logs`.
    child.on('close', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return { child, exited, output: () => text, logs };
}

export async function spawnServer(options: SpawnOptions): Promise<ChildServer> {
  const run = runServerProcess(options);
  // Below vitest's 240 s test timeout (vitest.shared.ts), so a start that never comes fails here,
  // with the output, rather than as a bare test timeout.
  const deadline = Date.now() + (options.timeoutMs ?? 200_000);
  let url: string | undefined;
  for (;;) {
    const listening = run.logs.find((l) => l.msg === 'listening');
    if (listening) {
      url = String(listening.url);
      break;
    }
    const code = await Promise.race([
      run.exited,
      new Promise<undefined>((resolve) => setTimeout(resolve, 50)),
    ]);
    if (code !== undefined) throw new Error(`The server exited (${code}) before listening:\n${run.output()}`);
    if (Date.now() > deadline) {
      run.child.kill('SIGKILL');
      throw new Error(`The server did not listen in time:\n${run.output()}`);
    }
  }
  return { process: run.child, url, logs: run.logs, output: run.output, exited: run.exited };
}
