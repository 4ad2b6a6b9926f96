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
  /** Resolves with the first log line (so far or later) that `matches`; never rejects. */
  logLine(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

export function runServerProcess(options: SpawnOptions): ServerProcess {
  // node itself, not the tsx CLI: tsx would run the server in a grandchild that a SIGKILL misses.
  // No V8 flags: the store compiles PGlite with the baseline compiler itself (pglite-compiler.ts).
  const args = ['--import', 'tsx', '--conditions=source', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: options.appDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const logs: Record<string, unknown>[] = [];
  const waiting = new Set<(line: Record<string, unknown>) => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    text += `${line}\n`;
    if (line.startsWith('{')) {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        for (const waiter of waiting) waiter(entry);
      } catch {
        // A banner line that happens to start with "{": not a log line.
      }
    }
  });
  const exited = new Promise<number | string>((resolve) => {
    // 'close', not 'exit': by then stdout is fully read, so the last log lines are in `logs`.
    child.on('close', (code, signal) => resolve(code ?? signal ?? -1));
  });
  const logLine = (matches: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const found = logs.find(matches);
      if (found) return resolve(found);
      const waiter = (entry: Record<string, unknown>) => {
        if (!matches(entry)) return;
        waiting.delete(waiter);
        resolve(entry);
      };
      waiting.add(waiter);
      // Nothing more comes once the process is gone: let the waiter go with it.
      void exited.then(() => waiting.delete(waiter));
    });
  return { child, exited, output: () => text, logs, logLine };
}

export async function spawnServer(options: SpawnOptions): Promise<ChildServer> {
  const run = runServerProcess(options);
  // Ends on the `listening` line or the exit. The timer is a hang guard only, below vitest's 240 s
  // test timeout (vitest.shared.ts), so a start that never comes fails here with the output.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), options.timeoutMs ?? 200_000);
  });
  const outcome = await Promise.race([
    run.logLine((l) => l.msg === 'listening'),
    run.exited.then((code) => ({ exitedWith: code })),
    hung,
  ]).finally(() => clearTimeout(timer));
  if (outcome === 'hung') {
    run.child.kill('SIGKILL');
    throw new Error(`The server did not listen in time:\n${run.output()}`);
  }
  if ('exitedWith' in outcome)
    throw new Error(`The server exited (${outcome.exitedWith}) before listening:\n${run.output()}`);
  const url = String(outcome.url);
  return { process: run.child, url, logs: run.logs, output: run.output, exited: run.exited };
}
