/**
 * certify's `--start-command`: certify starts the market with the configuration it prints, restarts
 * it for the restart check as a platform does (SIGTERM, the server exits by itself, the same command
 * again in the same directory), and stops it at the end. The market here is a stand-in that logs
 * what it was started with and answers every request.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { marketProcess } from '../src/commands/market-process.js';
import { freePort } from './certify-helpers.js';
import { cli, file } from './helpers.js';

/** Logs `start <PORT> <BNPL_INTEGRATION_MODE> <token set?>` and `stop` (on SIGTERM) to `log`. */
function standIn(log: string): string {
  return file(
    `const fs = require('node:fs');
const log = (line) => fs.appendFileSync(${JSON.stringify(log)}, line + '\\n');
const server = require('node:http').createServer((req, res) => res.end('{}')).listen(Number(process.env.PORT), '127.0.0.1');
log(['start', process.env.PORT, process.env.BNPL_INTEGRATION_MODE, process.env.MARKET_API_TOKEN ? 'token' : 'no-token'].join(' '));
process.on('SIGTERM', () => { log('stop'); server.close(() => process.exit(0)); });
`,
    'stand-in.cjs',
  );
}

const silent = { stdout: () => {}, stderr: () => {} };

describe('certify --start-command', () => {
  it('starts the market with the printed configuration and stops it at the end', async () => {
    const log = file('', 'market.log');
    const [marketPort, sandboxPort] = [await freePort(), await freePort()];
    const run = await cli(
      'certify',
      '--market-url',
      `http://127.0.0.1:${marketPort}`,
      '--mode',
      'basic',
      '--sandbox-port',
      String(sandboxPort),
      '--only',
      'demo-user.sandbox',
      '--start-command',
      `node ${standIn(log)}`,
    );
    expect(run.stderr).toContain(`Starting the market: node `);
    expect(readFileSync(log, 'utf8')).toBe(`start ${marketPort} basic token\nstop\n`);
    // The stand-in answers `{}` to everything: the one check fails, and the run says so.
    expect(run.status).toBe(1);
  });

  it('restarts it: SIGTERM, its own exit, then the command again', async () => {
    const log = file('', 'market.log');
    const port = await freePort();
    const market = marketProcess(
      `node ${standIn(log)}`,
      { PORT: String(port), BNPL_INTEGRATION_MODE: 'data-sharing' },
      `http://127.0.0.1:${port}/v1/demo-user`,
      30_000,
      silent,
    );
    await market.start();
    await market.restart();
    expect(await market.stop()).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe(
      `start ${port} data-sharing no-token\nstop\nstart ${port} data-sharing no-token\nstop\n`,
    );
  });

  it('fails the run when the command exits before the market answers', async () => {
    const [marketPort, sandboxPort] = [await freePort(), await freePort()];
    const run = await cli(
      'certify',
      '--market-url',
      `http://127.0.0.1:${marketPort}`,
      '--mode',
      'basic',
      '--sandbox-port',
      String(sandboxPort),
      '--start-command',
      'node -e "process.exit(3)"',
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--start-command exited with 3 before the market answered');
  });

  it('is refused together with --restart-command (exit 2)', async () => {
    const run = await cli(
      'certify',
      '--market-url',
      'http://127.0.0.1:9',
      '--mode',
      'basic',
      '--start-command',
      'node server.mjs',
      '--restart-command',
      './restart.sh',
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/cannot be used with option '--restart-command/);
  });
});

describe('the exec form of a simple start command', () => {
  it('puts exec after leading assignments, so "NAME=value cmd" starts cmd with NAME set', async () => {
    const { execForm } = await import('../src/commands/market-process.js');
    expect(execForm('node server.mjs')).toBe('exec node server.mjs');
    expect(execForm('NEXT_MANUAL_SIG_HANDLE=true A=1 npx next start')).toBe(
      'NEXT_MANUAL_SIG_HANDLE=true A=1 exec npx next start',
    );
  });

  it('starts a command with a leading assignment (it used to exit at once: "exec: NAME=value: not found")', async () => {
    const log = file('', 'market.log');
    const port = await freePort();
    const market = marketProcess(
      `STAND_IN=1 node ${standIn(log)}`,
      { PORT: String(port), BNPL_INTEGRATION_MODE: 'basic' },
      `http://127.0.0.1:${port}/v1/demo-user`,
      30_000,
      silent,
    );
    await market.start();
    expect(await market.stop()).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe(`start ${port} basic no-token\nstop\n`);
  });
});

describe('certify --only', () => {
  it('refuses a selection that names no check before starting anything (exit 2), never an empty PASS', async () => {
    const log = file('', 'market.log');
    const [marketPort, sandboxPort] = [await freePort(), await freePort()];
    const run = await cli(
      'certify',
      '--market-url',
      `http://127.0.0.1:${marketPort}`,
      '--mode',
      'basic',
      '--sandbox-port',
      String(sandboxPort),
      '--only',
      'webhook.',
      'no.such.check',
      '--start-command',
      `node ${standIn(log)}`,
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--only no\.such\.check: no basic check has that ID or ID prefix/);
    expect(run.stdout).not.toMatch(/PASSED/);
    expect(readFileSync(log, 'utf8')).toBe('');
  });
});

describe('certify --start-command through a wrapper that exits first (npx, npm start)', () => {
  it('restarts only once every process of the command has stopped, so the new server gets the port', async () => {
    const log = file('', 'market.log');
    // The server drains for a moment after SIGTERM; its wrapper exits at once (as npx does).
    const server = file(
      `const fs = require('node:fs');
const log = (line) => fs.appendFileSync(${JSON.stringify(log)}, line + '\\n');
const server = require('node:http').createServer((req, res) => res.end('{}'));
server.on('error', (error) => { log('error ' + error.code); process.exit(1); });
server.listen(Number(process.env.PORT), '127.0.0.1', () => log('listening'));
process.on('SIGTERM', () => setTimeout(() => server.close(() => { log('stopped'); process.exit(0); }), 300));
`,
      'draining-server.cjs',
    );
    const wrapper = file(
      `const child = require('node:child_process').spawn(process.execPath, [${JSON.stringify(server)}], { stdio: 'inherit' });
process.on('SIGTERM', () => process.exit(1));
child.on('exit', (code) => process.exit(code ?? 1));
`,
      'wrapper.cjs',
    );
    const port = await freePort();
    const market = marketProcess(
      `node ${wrapper}`,
      { PORT: String(port) },
      `http://127.0.0.1:${port}/v1/demo-user`,
      30_000,
      silent,
    );
    await market.start();
    await market.restart();
    await market.stop();
    expect(readFileSync(log, 'utf8')).toBe('listening\nstopped\nlistening\nstopped\n');
  });
});
