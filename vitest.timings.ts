/**
 * A vitest reporter that writes each file's time, whole (environment, import, set-up and tests), and
 * its CPU seconds (vitest.cpu.ts) to `node_modules/.vitest/timings.json` in the package, for `pnpm
 * bench test-suite`. Vitest's own JSON report counts only the tests, which misses what makes a file
 * slow on a busy machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** What vitest.cpu.ts leaves in a file's task meta. */
export interface FileCpuMeta {
  cpuSeconds?: number;
}

export interface FileTiming {
  file: string;
  /** Environment, harness, import and set-up, and every test and hook: the file's whole time. */
  totalMs: number;
  importMs: number;
  testsMs: number;
  /** The file's CPU seconds, its waited-for child processes included (vitest.cpu.ts); absent when not measured. */
  cpuSeconds?: number;
  state: string;
  passed: number;
  failed: number;
}

export interface PackageTimings {
  root: string;
  startedAt: number;
  endedAt: number;
  files: FileTiming[];
}

export default class TimingsReporter implements Reporter {
  #root = process.cwd();
  #startedAt = Date.now();

  onInit(vitest: { config: { root: string } }): void {
    this.#root = vitest.config.root;
    this.#startedAt = Date.now();
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const files = modules.map((module): FileTiming => {
      const d = module.diagnostic();
      let passed = 0;
      let failed = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
      const { cpuSeconds } = module.meta() as FileCpuMeta;
      return {
        file: relative(this.#root, module.moduleId),
        totalMs:
          d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        importMs: d.collectDuration,
        testsMs: d.duration,
        ...(cpuSeconds !== undefined && { cpuSeconds }),
        state: module.state(),
        passed,
        failed,
      };
    });
    const report: PackageTimings = {
      root: this.#root,
      startedAt: this.#startedAt,
      endedAt: Date.now(),
      files,
    };
    const dir = join(this.#root, 'node_modules', '.vitest');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'timings.json'), `${JSON.stringify(report, null, 2)}\n`);
  }
}
