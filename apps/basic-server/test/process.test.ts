/**
 * The basic-mode server as `pnpm start` runs it, in a child process: it starts on an embedded
 * database and sandbox, prints where it listens and the walkthrough, serves /readyz, and stops
 * gracefully on SIGTERM; a configuration it cannot run with is refused with every problem listed
 * and exit code 1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatConfigProblems, loadServerConfig } from '@bnpl-kit/reference-server';
import { runServerProcess, spawnServer } from '@bnpl-kit/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

/** What basic-server prints when the configuration loader refuses `env`. */
function refusal(env: Record<string, string>): string {
  try {
    loadServerConfig(env, { integrationMode: 'basic', defaults: { port: 3000, dataDir: APP_DIR } });
  } catch (error) {
    // A KitError (misconfigured); anything else prints differently and fails the comparison.
    return formatConfigProblems(error as Parameters<typeof formatConfigProblems>[0], 'basic-server');
  }
  throw new Error('expected the configuration to be refused');
}

describe('basic-server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bnpl-basic-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts, prints the walkthrough, answers /readyz and stops on SIGTERM', async () => {
    const server = await spawnServer({
      appDir: APP_DIR,
      env: { PORT: '0', DATA_DIR: dataDir, FRAMEWORK: 'express' },
    });
    try {
      // spawnServer resolved on the `listening` log line: the readiness signal comes last, so
      // whoever waits for it (a script, a process manager) has the whole walkthrough by then.
      const output = server.output();
      expect(output).toContain(`basic-server (basic mode, sandbox, express) listening on ${server.url}`);
      expect(output).toMatch(/^export MARKET_API_TOKEN='mkt_/m);
      expect(output).toContain(`BASE=${server.url}`);
      expect(output).toContain('curl -s -X POST $SANDBOX/orders/$ORDER/approve');
      expect(output.indexOf('"msg":"listening"')).toBeGreaterThan(output.indexOf('$ORDER/approve'));
      const listening = server.logs.find((l) => l.msg === 'listening');
      expect(listening).toMatchObject({ mode: 'sandbox', integrationMode: 'basic', database: 'pglite' });
      const ready = await fetch(`${server.url}/readyz`);
      expect(await ready.json()).toEqual({
        status: 'ready',
        checks: { database: true, migrations: true, worker: true },
      });
    } finally {
      server.process.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    expect(server.logs.some((l) => l.msg === 'stopped')).toBe(true);
  });

  it('refuses production without its configuration, listing every problem (exit code 1)', async () => {
    const env = { MODE: 'production', FRAMEWORK: 'flask' };
    const run = runServerProcess({ appDir: APP_DIR, env });
    expect(await run.exited).toBe(1);
    // Which variables production needs is the configuration tests' business (reference-kit's and
    // core's); here: the process prints the loader's whole report, the framework's and the mode's too.
    const output = run.output();
    expect(output).toContain(refusal(env));
    expect(output).toContain('  - APP_ID ');
    expect(output).toContain('  - FRAMEWORK ');
    expect(output).toContain('production cannot use the embedded sandbox');
  });
});
