/** What a command cost in CPU, as the test command measures each package (measure-cpu.mjs, child-cpu.mjs). */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childTicks } from '../child-cpu.mjs';

const MEASURE_CPU = fileURLToPath(new URL('../measure-cpu.mjs', import.meta.url));

// Node code that burns argv[1] milliseconds of its own CPU time (not of the clock).
const BURN =
  'const s = process.cpuUsage(); const busy = () => { const u = process.cpuUsage(s); return u.user + u.system; };' +
  ' let x = 0; while (busy() < Number(process.argv[1]) * 1000) x++;';

interface Measured {
  code: number | null;
  report: string;
  stderr: string;
}

/** Runs measure-cpu.mjs with `args`, a pipe on fd 3; `whenStarted` gets the wrapper once it runs. */
function measure(args: string[], whenStarted?: (pid: number) => void): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MEASURE_CPU, ...args], {
      env: { ...process.env, BURN },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let report = '';
    let stderr = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      report += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.once('data', () => whenStarted?.(child.pid!));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, report, stderr }));
  });
}

describe('childTicks', () => {
  it('reads cutime + cstime past a command name holding spaces and parentheses', () => {
    const line = '4242 (a b) (c)) S 1 4242 4242 0 -1 4194304 99 0 0 0 7 3 120 35 20 0 1 0 380340 3133440 382';
    expect(childTicks(line)).toBe(155);
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => childTicks('no such thing')).toThrow(/not a \/proc/);
  });
});

describe.runIf(existsSync('/proc/self/stat'))('measure-cpu.mjs', () => {
  it("reports the CPU of the command's whole waited-for tree and exits as the command did", async () => {
    // sh → node (300 ms of CPU) and sh → sh → node (200 ms): both waited for, so both count.
    const run = await measure([
      '--report-fd=3',
      'sh',
      '-c',
      `node -e "$BURN" 300 && sh -c 'node -e "$BURN" 200'; exit 3`,
    ]);
    expect(run.code).toBe(3);
    const { cpuSeconds } = JSON.parse(run.report) as { cpuSeconds: number };
    expect(cpuSeconds).toBeGreaterThanOrEqual(0.5);
    // Not the wrapper's own CPU, nor a second count of the grandchild: well under twice the burn.
    expect(cpuSeconds).toBeLessThan(1);
  });

  it("passes a supervisor's SIGTERM on to the command, and exits as a shell reports the signal", async () => {
    // The command prints once it runs, then waits; only the SIGTERM passed on can end it.
    const run = await measure(
      ['--report-fd=3', process.execPath, '-e', 'console.log("up"); setInterval(() => {}, 1000);'],
      (pid) => process.kill(pid, 'SIGTERM'),
    );
    expect(run.code).toBe(128 + 15);
    expect(JSON.parse(run.report)).toHaveProperty('cpuSeconds');
  });

  it('refuses to run without a report descriptor named (a Node process has fds of its own from 3)', async () => {
    const run = await measure(['sh', '-c', 'exit 0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/usage: node scripts\/measure-cpu\.mjs --report-fd=<fd>/);
    expect(run.report).toBe('');
  });
});
