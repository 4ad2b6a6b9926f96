import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { vectors, verifyArgs } from './helpers.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// The real binary path: a separate Node process, tsx for TypeScript, workspace packages through
// their "source" export condition (no build needed).
function bnplKit(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', 'src/bin.ts', ...args], {
    cwd: packageDir,
    encoding: 'utf8',
    timeout: 120_000, // "hung", not "slow": tsx starting under CI load takes seconds
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

// What a process adds to the in-process runs of the commands (webhook.test.ts, keygen.test.ts) is
// src/bin.ts: the status becomes the exit code, the output reaches stdout and stderr. Each process
// costs a tsx start of the whole CLI, so one per exit code that only this file shows: exit 0 with
// stdout is certify-e2e.test.ts's (the same tsx binary), and scripts/test/readme-commands.test.ts
// runs the README's keygen and webhook lines through the published binary.
describe('bnpl-kit as a process', () => {
  it('rejects a tampered vector: prints the code, exits 1', () => {
    const tampered = vectors.webhook_cases.find((c) => c.name === 'tampered body (status changed)')!;
    const run = bnplKit(...verifyArgs(tampered));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^signature_invalid: /);
  });

  it('exits 2 on a usage error', () => {
    const run = bnplKit('webhook', 'verify');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/required option/);
  });
});
