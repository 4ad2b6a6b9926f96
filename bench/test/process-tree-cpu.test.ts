import { existsSync } from 'node:fs';
import { reportedCpuSeconds } from '@bnpl-kit/scripts/child-cpu.mjs';
import { describe, expect, it } from 'vitest';
import { runMeasured } from '../process-tree-cpu.js';

// Node code that burns argv[1] milliseconds of its own CPU time (not of the clock), then exits.
const BURN =
  'const s = process.cpuUsage(); const busy = () => { const u = process.cpuUsage(s); return u.user + u.system; };' +
  ' let x = 0; while (busy() < Number(process.argv[1]) * 1000) x++;';

describe('reportedCpuSeconds', () => {
  it("reads measure-cpu.mjs's line, and nothing from an empty report (no /proc)", () => {
    expect(reportedCpuSeconds('{"cpuSeconds":12.5}\n')).toBe(12.5);
    expect(reportedCpuSeconds('')).toBeUndefined();
  });
});

describe.runIf(existsSync('/proc/self/stat'))('runMeasured', () => {
  it("counts the CPU of the command's children and grandchildren, and passes its exit code on", async () => {
    // sh → node (300 ms of CPU) and sh → sh → node (200 ms): both are waited for, so both count.
    const run = await runMeasured(
      ['sh', '-c', `node -e "$BURN" 300 && sh -c 'node -e "$BURN" 200'; exit 3`],
      {
        cwd: process.cwd(),
        env: { ...process.env, BURN },
        quiet: true,
      },
    );
    expect(run.exitCode).toBe(3);
    expect(run.cpuSeconds).toBeGreaterThanOrEqual(0.5);
    expect(run.wallSeconds).toBeGreaterThan(0);
  });
});
