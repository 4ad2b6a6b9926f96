/**
 * The README's commands, as written, on a fresh clone of this working tree: install, start (probe
 * /healthz, then SIGTERM), every CLI line, and the sandbox example with the walkthrough the server
 * prints. Only the ports differ (3000 and 4010 may be taken on a shared machine). The test command
 * itself is not run here (it would run this test again); its set-up is tested in chromium.test.ts
 * and CI runs it through .ci/run. Timings and the server's RSS go to test-output/readme-commands.json.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bnpl-kit/test-ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bash, type Command, exportsOf, HUNG_MS, rssMb, runLine } from './support/processes.js';
import { commandsIn } from './support/readme.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = join(ROOT, 'README.md');
const measured: Record<string, number | string | undefined> = {};
const running: Command[] = [];

/** A clone of the working tree as it is now (committed or not), without anything git ignores. */
function cloneWorkingTree(into: string): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT })
    .toString()
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(into, file));
  }
}

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    measured[`${name}_ms`] = Math.round(performance.now() - started);
  }
}

/** Polls /healthz until it answers 200; fails once the server has exited (or hung: HUNG_MS). */
async function healthy(url: string, server: Command): Promise<void> {
  const deadline = Date.now() + HUNG_MS;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ok) return;
    const exited = server.hasExited();
    if (exited || Date.now() > deadline)
      throw new Error(
        `${url}/healthz never answered (${exited ? 'the server exited' : 'hung'}):\n${server.output()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function closed(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => false,
    () => true,
  );
}

// Each README line starts `npx`, pnpm and node: ~3 s on a quiet machine, but CI runs every
// package's tests at once, and there a start took 52 s and five CLI lines more than 120 s. So the
// integration timeout (vitest.shared.ts) applies: a safety net for a hung process, not a speed
// assertion (bench/ measures start-up).
describe('the README, as written, on a fresh clone', () => {
  let base: string;
  let clone: string;
  let marketPort: number;
  let sandboxPort: number;
  const quickstart = commandsIn(README, 'Quickstart');
  const [install, start] = (quickstart.find((line) => line.includes(' install && ')) ?? '').split(' && ');
  /** The README's ports, moved to free ones. */
  const ports = (line: string) =>
    line
      .replaceAll(/(127\.0\.0\.1|localhost):300[01]\b/g, `$1:${marketPort}`)
      .replaceAll(/--port 4010\b/g, `--port ${sandboxPort}`)
      .replaceAll(/127\.0\.0\.1:4010\b/g, `127.0.0.1:${sandboxPort}`);

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'bnpl-readme-'));
    clone = join(base, 'bnpl-kit');
    cloneWorkingTree(clone);
    marketPort = await freePort();
    sandboxPort = await freePort();
  });
  afterAll(async () => {
    for (const command of running) command.signal('SIGKILL');
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    writeFileSync(
      join(ROOT, 'test-output', 'readme-commands.json'),
      `${JSON.stringify(measured, null, 2)}\n`,
    );
    await rm(base, { recursive: true, force: true });
  });

  it('has the Quickstart commands: install, then start or test', () => {
    expect(install).toBe('npx -y pnpm@10 install');
    expect(start).toBe('node scripts/start.mjs');
    expect(quickstart).toContain(`${install} && npx -y pnpm@10 test`);
    // The test command is this repository's own set-up script (tested in chromium.test.ts).
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.test).toBe(
      'node scripts/test.mjs',
    );
  });

  it('installs', async () => {
    // The local store makes this fast and offline-safe; the command is the README's.
    const run = await timed('install', () =>
      runLine(install!, { cwd: clone, env: { npm_config_prefer_offline: 'true' } }),
    );
    expect(run.status, run.output).toBe(0);
  });

  it('starts one process that answers /healthz and stops cleanly on SIGTERM', async () => {
    const server = bash(start!, { cwd: clone, env: { PORT: String(marketPort) } });
    running.push(server);
    const began = performance.now();
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/);
    await healthy(url!, server);
    measured.start_first_ready_ms = Math.round(performance.now() - began);
    // bash hands over to node itself: no shell, package manager or tsx process in between.
    expect(readFileSync(`/proc/${server.child.pid}/comm`, 'utf8').trim()).toBe('node');
    measured.start_rss_mb = await rssMb(server.child.pid!);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
    expect(await closed(marketPort)).toBe(true);
  });

  it('runs every CLI line with clean output', async () => {
    const lines = commandsIn(README, 'CLI');
    expect(lines[0]).toBe('mkdir -p scratch && cd scratch');
    expect((await runLine(lines[0]!, { cwd: clone })).status).toBe(0);
    const scratch = join(clone, 'scratch');
    for (const [index, line] of lines.slice(1).entries()) {
      // The two long-running commands get their own tests below.
      if (/[ /]bnpl-kit(\.mjs)? (sandbox|certify) /.test(line)) continue;
      const what = /bnpl-kit(?:\.mjs)? (keygen|webhook \w+)/.exec(line)?.[1] ?? 'shell';
      const run = await timed(`cli_${index + 1}_${what.replace(' ', '_')}`, () =>
        runLine(ports(line), { cwd: scratch }),
      );
      expect(run.stdout).not.toMatch(/^> /m); // no package-manager banner in what a user redirects
      if (line.includes('localhost:3000')) {
        expect(run.status).toBe(1);
        expect(run.stdout).toMatch(/^signature_invalid: /);
        continue;
      }
      expect(run.status, `${line}\n${run.output}`).toBe(0);
      const written = / > (\S+)$/.exec(line)?.[1];
      if (written?.endsWith('.json'))
        expect(() => JSON.parse(readFileSync(join(scratch, written), 'utf8'))).not.toThrow();
      if (line.includes(' webhook verify ')) expect(run.stdout).toBe('valid\n');
    }
    expect(readFileSync(join(scratch, 'public.key'), 'utf8')).toMatch(/^[\w-]{43}\n$/);
    expect(existsSync(join(scratch, 'key.pem'))).toBe(true);
  });

  it('runs the sandbox example: webhooks succeed with the printed exports, and the printed walkthrough completes', async () => {
    const [sandboxLine, stateLine] = commandsIn(README, 'The sandbox service');
    // The same command as the CLI section's (which runs from scratch/, this one from the root).
    const args = (line: string) => line.replace(/^.*?[ /]bnpl-kit(\.mjs)? /, '');
    expect(commandsIn(README, 'CLI').map(args)).toContain(args(sandboxLine!));
    expect(sandboxLine).toMatch(/^node scripts\/bnpl-kit\.mjs /);
    const sandbox = bash(ports(sandboxLine!), { cwd: clone });
    running.push(sandbox);
    await sandbox.waitFor(/Press Ctrl\+C to stop/);
    const env = exportsOf(sandbox.output());
    expect(env.PUBLIC_BASE_URL).toBe(`http://127.0.0.1:${marketPort}`);
    const state = await runLine(ports(stateLine!), { cwd: clone });
    expect(JSON.parse(state.stdout).organizations[0].webhook_urls).toEqual([
      `http://127.0.0.1:${marketPort}/v1/webhook`,
    ]);

    const server = bash(start!, { cwd: clone, env: { ...env, PORT: String(marketPort) } });
    running.push(server);
    await server.waitFor(/curl -s \$BASE\/v1\/orders\/service\/\$ORDER[^\n]*\n/);
    measured.start_again_rss_mb = await rssMb(server.child.pid!);
    const banner = server.output();
    expect(banner).toContain(`webhooks: register exactly http://127.0.0.1:${marketPort}/v1/webhook`);
    // From after the "Walkthrough:" line to its last step (JSON log lines may follow).
    const from = banner.indexOf('\n\n', banner.indexOf('Walkthrough: paste into bash')) + 2;
    const last = banner.search(/curl -s \$BASE\/v1\/orders\/service\/\$ORDER/);
    const script = banner.slice(from, banner.indexOf('\n', last) + 1);
    expect(script).toContain(`SERVICE=${env.SERVICE_API_URL}\n`);
    // The README shows the same helpers as the server prints.
    const readme = readFileSync(README, 'utf8');
    for (const helper of ['json', 'wait_status', 'webhooks']) {
      const printed = script.split('\n').find((line) => line.startsWith(`${helper}() {`));
      expect(printed, helper).toBeDefined();
      expect(readme.split('\n'), helper).toContain(printed);
    }
    const walkthrough = await timed('walkthrough', () =>
      runLine(`set -e -o pipefail\n${script}`, { cwd: join(clone, 'scratch') }),
    );
    expect(walkthrough.status, walkthrough.output).toBe(0);
    expect(walkthrough.stdout).toMatch(/stored status of \S+: PAID/);
    expect(walkthrough.stdout).toMatch(/BNPL_ORDER_STATUS_UPDATED PAID -> 200 \{"received":true\}/);
    expect(server.output()).not.toContain('failed verification');

    server.signal('SIGINT'); // Ctrl-C in the server's terminal
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
    sandbox.signal('SIGINT');
    await sandbox.exited;
  });

  it('runs the data-sharing sandbox example: the printed walkthrough completes in a fresh shell', async () => {
    const [sandboxLine, startLine] = commandsIn(README, 'The sandbox service').slice(2);
    expect(sandboxLine).toMatch(
      /^node scripts\/bnpl-kit\.mjs sandbox .*--webhook-url http:\/\/127\.0\.0\.1:3001\/v1\/webhook$/,
    );
    expect(startLine).toBe('node scripts/start.mjs data-sharing');
    const sandbox = bash(ports(sandboxLine!), { cwd: clone });
    running.push(sandbox);
    await sandbox.waitFor(/Press Ctrl\+C to stop/);
    const env = exportsOf(sandbox.output());
    expect(env.PUBLIC_BASE_URL).toBe(`http://127.0.0.1:${marketPort}`);
    // The exports pasted into the server's terminal; the port is the only change.
    const server = bash(startLine!, { cwd: clone, env: { ...env, PORT: String(marketPort) } });
    running.push(server);
    await server.waitFor(/wait_status \$ORDER2 CANCELED\n/);
    const banner = server.output();
    const from = banner.indexOf('\n\n', banner.indexOf('Walkthrough: paste into bash')) + 2;
    const script = banner.slice(from, banner.indexOf('wait_status $ORDER2 CANCELED\n') + 28);
    // A fresh shell: nothing exported, nothing read from the server's key file.
    expect(script).not.toContain('keys.json');
    expect(script).not.toContain(env.APP_API_KEY);
    mkdirSync(join(clone, 'scratch'), { recursive: true });
    const walkthrough = await timed('walkthrough_data_sharing', () =>
      runLine(`set -e -o pipefail\n${script}`, { cwd: join(clone, 'scratch') }),
    );
    expect(walkthrough.status, walkthrough.output).toBe(0);
    const out = walkthrough.stdout;
    expect(out).toMatch(/^credify_id: crf_\S+$/m);
    expect(out).not.toContain('undefined');
    // Offer filtering ran: An is offered the loyalty plan, Bình is not.
    expect(out.match(/loyalty-gold-pay-in-6 rank 1/g)).toHaveLength(1);
    expect(out).toMatch(/^\{"credify_id":"crf_\S+"\}$/m);
    expect(out).toMatch(/stored status of \S+: PAID/);
    expect(out.match(/"idempotency_key":"disburse:/g)).toHaveLength(1);
    expect(out).toMatch(/stored status of \S+: CANCELED/);
    const users = await (await fetch(`http://127.0.0.1:${marketPort}/v1/demo-user`)).json();
    expect(users.users[0].credify_id).toMatch(/^crf_/);
    expect(server.output()).not.toContain('failed verification');

    server.signal('SIGINT');
    expect(await server.exited).toBe(0);
    sandbox.signal('SIGINT');
    await sandbox.exited;
  });

  it('runs the certify line against the reference server started with the exports it prints', async () => {
    const line = commandsIn(README, 'CLI').find((command) => /[ /]bnpl-kit(\.mjs)? certify /.test(command));
    const scratch = join(clone, 'scratch');
    // Its sandbox's port moves too (4010 by default).
    const certify = bash(`${ports(line!)} --sandbox-port 0`, { cwd: scratch });
    running.push(certify);
    await certify.waitFor(/Waiting up to \d+ s for the market/);
    const env = exportsOf(certify.output());
    expect(env.PUBLIC_BASE_URL).toBe(`http://127.0.0.1:${marketPort}`);
    const server = bash(start!, { cwd: clone, env: { ...env, PORT: String(marketPort) } });
    running.push(server);
    const status = await timed('certify', () => certify.exited);
    expect(status, certify.output()).toBe(0);
    expect(readFileSync(join(scratch, 'certify-report.xml'), 'utf8')).toContain('<testsuite');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
