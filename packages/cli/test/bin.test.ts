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

describe('bnpl-kit as a process', () => {
  it('verifies a valid vector: prints "valid", exits 0', () => {
    const run = bnplKit(...verifyArgs(vectors.webhook_cases[0]!));
    expect(run).toMatchObject({ status: 0, stdout: 'valid\n' });
  });

  it('rejects a tampered vector: prints the code, exits 1', () => {
    const tampered = vectors.webhook_cases.find((c) => c.name === 'tampered body (status changed)')!;
    const run = bnplKit(...verifyArgs(tampered));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^signature_invalid: /);
  });

  it('runs keygen --json', () => {
    const run = bnplKit('keygen', '--json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('exits 2 on a usage error', () => {
    const run = bnplKit('webhook', 'verify');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/required option/);
  });
});
