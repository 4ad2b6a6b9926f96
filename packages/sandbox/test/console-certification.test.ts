/** The console's Certification page and its API (start, live progress, past runs) with a fake runner. */
import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_RUNS } from '../src/console/certification-runs.js';
import {
  type CertificationCheck,
  type CertificationOutcome,
  type CertificationRequest,
  type CertificationRunner,
  createManualClock,
  createSandbox,
  type Sandbox,
} from '../src/index.js';
import { BASE_URL, marketOrg } from './support.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

const call = (s: Sandbox, method: string, path: string, body?: unknown, token?: string) =>
  s.handle(
    new Request(`${BASE_URL}${path}`, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
    { basePath: '' },
  );

/** Runs the promise callbacks the finished runner queued (no timers involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A runner the test drives: it reports checks and ends the run when told. */
function fakeRunner() {
  const started: CertificationRequest[] = [];
  let report: (check: CertificationCheck) => void = () => {};
  let finish: (outcome: CertificationOutcome) => void = () => {};
  let crash: (error: Error) => void = () => {};
  const runner: CertificationRunner = {
    modes: ['basic'],
    notice: 'Runs with --lacks restart.',
    start(request, onResult) {
      started.push(request);
      report = onResult;
      return new Promise((resolve, reject) => {
        finish = resolve;
        crash = reject;
      });
    },
  };
  const check = (id: string, status = 'pass') =>
    report({ id, title: `Title of ${id}`, status, durationMs: 3 });
  return {
    runner,
    started,
    check,
    finish: (o: CertificationOutcome) => finish(o),
    crash: (e: Error) => crash(e),
  };
}

const PASSED = {
  ok: true,
  summary: { total: 2, passed: 2, failed: 0 },
  html: '<!doctype html><p>report of the run</p>',
};

describe('console certification', () => {
  it('serves the Certification page as a data-free shell under the console CSP', async () => {
    sandbox = createSandbox({ organizations: [marketOrg()], clock: createManualClock() });
    const response = await call(sandbox, 'GET', '/sandbox/console/certification');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const page = await response.text();
    expect(page).toContain('<h1>Certification</h1>');
    expect(page).not.toMatch(/<script src=|https?:\/\/(?!www\.w3)/);
  });

  it('says certification is not available without a runner, and refuses to start one', async () => {
    sandbox = createSandbox({ organizations: [marketOrg()], clock: createManualClock() });
    const index = await (await call(sandbox, 'GET', '/sandbox/certification')).json();
    expect(index).toMatchObject({ available: false, modes: [], runs: [] });
    expect(index.reason).toContain('pass one as the `certification` option');
    const start = await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'basic' });
    expect(start.status).toBe(404);
    expect((await start.json()).detail).toContain('not available');
  });

  it('starts a run against the organisation’s API base URL, shows checks as they arrive, keeps it afterwards', async () => {
    const fake = fakeRunner();
    sandbox = createSandbox({
      organizations: [marketOrg({ apiBaseUrl: 'https://market.test/v1' })],
      clock: createManualClock(),
      certification: fake.runner,
    });
    const index = await (await call(sandbox, 'GET', '/sandbox/certification')).json();
    expect(index).toMatchObject({ organization_id: 'org-market', api_base_url: 'https://market.test/v1' });
    expect(index).toMatchObject({ available: true, modes: ['basic'], notice: 'Runs with --lacks restart.' });

    const started = await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'basic' });
    expect(started.status).toBe(202);
    const run = await started.json();
    expect(run).toMatchObject({ state: 'running', mode: 'basic', checks: [], report: null });
    expect(fake.started).toEqual([
      { mode: 'basic', organizationId: 'org-market', apiBaseUrl: 'https://market.test/v1' },
    ]);

    // A second run while one goes would share the sandbox and the market with it.
    const second = await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'basic' });
    expect(second.status).toBe(409);

    fake.check('health.ready');
    const live = await (await call(sandbox, 'GET', `/sandbox/certification/runs/${run.id}`)).json();
    expect(live.state).toBe('running');
    expect(live.checks).toEqual([
      { id: 'health.ready', title: 'Title of health.ready', status: 'pass', duration_ms: 3, message: null },
    ]);
    expect((await call(sandbox, 'GET', `/sandbox/certification/runs/${run.id}/report`)).status).toBe(404);

    fake.check('webhook.signature');
    fake.finish(PASSED);
    await settle();
    const done = await (await call(sandbox, 'GET', `/sandbox/certification/runs/${run.id}`)).json();
    expect(done).toMatchObject({ state: 'passed', summary: PASSED.summary, checks_done: 2 });
    expect(done.report).toBe(`/sandbox/certification/runs/${run.id}/report`);

    const report = await call(sandbox, 'GET', done.report);
    expect(report.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(report.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await report.text()).toBe(PASSED.html);

    const past = await (await call(sandbox, 'GET', '/sandbox/certification')).json();
    expect(past.runs.map((r: { id: string; state: string }) => [r.id, r.state])).toEqual([
      [run.id, 'passed'],
    ]);
  });

  it('records a runner that throws as an error run, and refuses a mode the runner does not certify', async () => {
    const fake = fakeRunner();
    sandbox = createSandbox({
      organizations: [marketOrg()],
      clock: createManualClock(),
      certification: fake.runner,
    });
    const wrong = await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'data-sharing' });
    expect(wrong.status).toBe(400);
    const bogus = await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'strict' });
    expect((await bogus.json()).detail).toContain('mode must be one of basic, data-sharing');

    const run = await (await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'basic' })).json();
    fake.crash(new Error('market unreachable'));
    await settle();
    const failed = await (await call(sandbox, 'GET', `/sandbox/certification/runs/${run.id}`)).json();
    expect(failed).toMatchObject({ state: 'error', error: 'market unreachable', report: null });
  });

  it('keeps the last runs only, newest first', async () => {
    const fake = fakeRunner();
    sandbox = createSandbox({
      organizations: [marketOrg()],
      clock: createManualClock(),
      certification: fake.runner,
    });
    const ids: string[] = [];
    for (let i = 0; i <= KEPT_RUNS; i += 1) {
      ids.push(
        (await (await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'basic' })).json()).id,
      );
      fake.finish(PASSED);
      await settle();
    }
    const index = await (await call(sandbox, 'GET', '/sandbox/certification')).json();
    expect(index.runs.map((r: { id: string }) => r.id)).toEqual(ids.slice(1).reverse());
    const oldest = await call(sandbox, 'GET', `/sandbox/certification/runs/${ids[0]}`);
    expect(oldest.status).toBe(404);
  });

  it('guards the certification API with the admin token, as the rest of the admin API', async () => {
    const fake = fakeRunner();
    sandbox = createSandbox({
      organizations: [marketOrg()],
      clock: createManualClock(),
      adminToken: 'admin-token-1234',
      certification: fake.runner,
    });
    expect((await call(sandbox, 'GET', '/sandbox/certification')).status).toBe(401);
    expect((await call(sandbox, 'POST', '/sandbox/certification/runs', { mode: 'basic' })).status).toBe(401);
    expect(fake.started).toEqual([]);
    const index = await call(sandbox, 'GET', '/sandbox/certification', undefined, 'admin-token-1234');
    expect(index.status).toBe(200);
  });
});
