/**
 * Each test file's CPU seconds in the timings report (vitest.cpu.ts, read by vitest.timings.ts):
 * a real vitest run, with the repository's shared config, of three files in one worker (isolate
 * off, as most integration packages run): one computes, one starts a process that computes and
 * waits for it, one only waits.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SCRIPTS = resolve(ROOT, 'scripts');
/** Long enough to stand out of a file's own start. */
const BUSY_MS = 600;
// Until the process has used BUSY_MS of CPU (not of wall: on a loaded machine it gets a share of a core).
const busyLoop = `const s = process.cpuUsage(); const used = () => { const u = process.cpuUsage(s); return (u.user + u.system) / 1000; }; while (used() < ${BUSY_MS});`;

const FILES = {
  'computes.test.ts': `import { it } from 'vitest';\nit('computes', () => { ${busyLoop} });\n`,
  'waits-for-a-process.test.ts': `import { execFileSync } from 'node:child_process';\nimport { it } from 'vitest';\nit('waits for a process that computes', () => { execFileSync(process.execPath, ['-e', ${JSON.stringify(busyLoop)}]); });\n`,
  'waits.test.ts': `import { it } from 'vitest';\nit('waits', () => new Promise((done) => setTimeout(done, ${BUSY_MS})));\n`,
};

// Inside the scripts package, so that the files resolve vitest from its node_modules.
const dir = mkdtempSync(join(SCRIPTS, 'node_modules', '.file-cpu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the timings report', () => {
  it("gives each file's CPU seconds: its own computing and its waited-for processes', not its waiting", {
    timeout: 120_000,
  }, async () => {
    mkdirSync(join(dir, 'test'));
    for (const [name, source] of Object.entries(FILES)) writeFileSync(join(dir, 'test', name), source);
    writeFileSync(
      join(dir, 'vitest.config.ts'),
      `import { defineConfig, mergeConfig } from 'vitest/config';\n` +
        `import shared from ${JSON.stringify(join(ROOT, 'vitest.shared.ts'))};\n` +
        'export default mergeConfig(shared, defineConfig({ test: { isolate: false, maxWorkers: 1 } }));\n',
    );
    await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run'], {
      cwd: dir,
      env: { ...process.env, CI: 'true' },
    });
    const report = JSON.parse(readFileSync(join(dir, 'node_modules', '.vitest', 'timings.json'), 'utf8')) as {
      files: { file: string; cpuSeconds?: number }[];
    };
    const cpu = Object.fromEntries(report.files.map((file) => [file.file, file.cpuSeconds]));
    const busy = BUSY_MS / 1000;
    expect(cpu['test/computes.test.ts']).toBeGreaterThanOrEqual(busy * 0.9);
    expect(cpu['test/waits-for-a-process.test.ts']).toBeGreaterThanOrEqual(busy * 0.9);
    // Waiting costs nothing; the file's own import and hooks cost a little, never the busy loop.
    expect(cpu['test/waits.test.ts']).toBeLessThan(busy * 0.5);
  });
});
