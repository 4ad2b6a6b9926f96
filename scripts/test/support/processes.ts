/**
 * Commands as a user types them, in bash, each in its own process group so that a test can stop
 * everything a command started (npx → pnpm → node) the way a terminal's Ctrl-C would.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Only a hung command takes this long to print what a test waits for. Under the integration tests'
 * 600 s timeout (vitest.shared.ts), so the error carries the command's output; far above what a
 * start takes with every package's suite running on two shared cores (52 s seen), because a wait
 * ends on the output or the command's exit, never on this.
 */
export const HUNG_MS = 480_000;

export interface Command {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  stdout(): string;
  exited: Promise<number | string>;
  /** Whether the command has exited (what `exited` resolves, without awaiting it). */
  hasExited(): boolean;
  /** Polls the output until it matches, or fails once the command has exited (or hung: HUNG_MS). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Signals the whole process group. */
  signal(signal: NodeJS.Signals): void;
}

/**
 * The environment of a user's shell: this process's, without what vitest, turbo and pnpm add
 * (vitest sets MODE=test, which the reference servers would read as their own MODE).
 */
export function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(MODE|NODE_ENV|TEST|VITEST.*|TURBO_.*|INIT_CWD|npm_.*|PNPM_.*)$/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

export function bash(line: string, options: { cwd: string; env?: Record<string, string> }): Command {
  const child = spawn('bash', ['-c', line], {
    cwd: options.cwd,
    env: { ...userEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let all = '';
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    all += chunk.toString();
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    all += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    output: () => all,
    stdout: () => out,
    exited,
    hasExited: () => done,
    async waitFor(pattern) {
      const deadline = Date.now() + HUNG_MS;
      for (;;) {
        const match = pattern.exec(all);
        if (match) return match;
        if (done) throw new Error(`\`${line}\` exited before printing ${pattern}:\n${all}`);
        if (Date.now() > deadline) throw new Error(`\`${line}\` did not print ${pattern}:\n${all}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    signal(signal) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is gone already.
      }
    },
  };
}

/** Runs a line to completion. */
export async function runLine(line: string, options: { cwd: string; env?: Record<string, string> }) {
  const command = bash(line, options);
  const status = await command.exited;
  return { status, stdout: command.stdout(), output: command.output() };
}

/** `export NAME=value` lines (values quoted the POSIX way or bare) → an environment. */
export function exportsOf(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of text.matchAll(/^export ([A-Z_][A-Z0-9_]*)=('(?:[^']|'\\'')*'|\S*)/gm)) {
    const raw = match[2]!;
    env[match[1]!] = raw.startsWith("'") ? raw.slice(1, -1).replaceAll(`'\\''`, "'") : raw;
  }
  return env;
}

/** Resident memory of a process, in MB (Linux). */
export async function rssMb(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 1024) : undefined;
}
