/**
 * certify's `--start-command`: the market under test as certify's own child process, started with
 * the configuration certify prints, so one command certifies a server from a clean shell, and
 * restarted for `restart.state-survives` the way a platform restarts it: SIGTERM (the server's drain
 * lets running work finish and exits by itself), then the same command again, in the same working
 * directory (a file-backed store such as PGlite's keeps its data there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { waitForHttp } from '@bnpl-kit/contract-tests';
import type { CliIO } from '../index.js';

/** A drain that takes longer than this is stuck: the process group is killed. */
export const STOP_GRACE_MS = 30_000;

export interface MarketProcess {
  /** Starts the command and resolves once `probe` answers; rejects when the command exits first. */
  start(): Promise<void>;
  /**
   * SIGTERM to the command's process group; its exit code (null when it was killed, or when a
   * compound command's shell, which SIGTERM ends, stood in front of it).
   */
  stop(): Promise<number | null>;
  /** SIGTERM, wait for the exit, start again and wait for the market to answer. */
  restart(): Promise<void>;
}

export function marketProcess(
  command: string,
  env: Record<string, string>,
  probe: string,
  timeoutMs: number,
  io: CliIO,
): MarketProcess {
  let child: ChildProcess | undefined;
  const start = async () => {
    io.stderr(`Starting the market: ${command}\n`);
    // Its own process group, so SIGTERM reaches the server and not only the shell around it. A
    // simple command replaces the shell (`exec`), so its own exit code is the one reported.
    const simple = /^[^;&|<>()$`\n]+$/.test(command);
    const started = spawn(simple ? execForm(command) : command, {
      shell: true,
      detached: true,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    // The server's output goes to stderr: certify's stdout is the configuration and the report.
    started.stdout?.on('data', (chunk: Buffer) => io.stderr(chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => io.stderr(chunk.toString()));
    const exited = once(started, 'exit').then(([code]) => {
      throw new Error(`--start-command exited with ${code} before the market answered at ${probe}`);
    });
    try {
      await Promise.race([
        waitForHttp(probe, {
          timeoutMs,
          what: `the market started by --start-command to answer at ${probe}`,
        }),
        exited,
      ]);
    } finally {
      exited.catch(() => {});
    }
  };
  const stop = async (): Promise<number | null> => {
    const running = child;
    if (running?.pid === undefined || running.exitCode !== null || running.signalCode !== null)
      return running?.exitCode ?? null;
    const exited = once(running, 'exit');
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-running.pid!, name);
      } catch {
        // Already gone.
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), STOP_GRACE_MS);
    try {
      const [code] = await exited;
      // A wrapper (`npx`, `npm start`) may exit before the server it started: until the whole
      // process group is gone, the old server may still hold the port (and answer the new one's probe).
      if (groupAlive(running.pid)) {
        io.stderr(
          'The command exited before the processes it started; waiting for them to stop (start the server directly, not through npx or npm, to see its own exit code).\n',
        );
        while (groupAlive(running.pid)) await delay(GROUP_POLL_MS);
      }
      return code as number | null;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    start,
    stop,
    async restart() {
      const code = await stop();
      io.stderr(`The market stopped (exit ${code ?? 'killed'}); starting it again.\n`);
      await start();
    },
  };
}

/** How often a stop looks whether the market's process group is gone. */
const GROUP_POLL_MS = 50;

/** Whether any process of the group `pgid` is still running (signal 0 only asks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Leading `NAME=value` words of a shell command (`NEXT_MANUAL_SIG_HANDLE=true npx next start`). */
const ASSIGNMENTS = /^(?:\s*[A-Za-z_][A-Za-z0-9_]*=[^\s'"\\]*\s+)*/;

/**
 * The command with `exec` where the shell accepts it: after its leading assignments, which
 * `exec NAME=value cmd` would take for the command to run ("exec: NAME=value: not found").
 */
export function execForm(command: string): string {
  const assignments = ASSIGNMENTS.exec(command)?.[0] ?? '';
  return `${assignments}exec ${command.slice(assignments.length)}`;
}
