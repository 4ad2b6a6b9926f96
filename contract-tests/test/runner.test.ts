/** The runner and the helpers every check relies on, without a market: outcomes, problems, users, HTTP records. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KIT_PROBLEM_TYPE_PREFIX } from '../src/expect.js';
import {
  type CheckContext,
  type ContractCheck,
  ContractHttp,
  type ContractSandbox,
  ContractViolation,
  expectProblem,
  type HttpExchange,
  PrerequisiteFailed,
  runContractSuite,
} from '../src/index.js';
import { runCheck } from '../src/runner.js';
import { hasCommitments, parseDemoUsers } from '../src/support/users.js';

const sandbox = { organizationId: 'org', serviceUrl: 'http://sandbox.invalid' } as ContractSandbox;
const options = { marketUrl: 'http://market.invalid/', mode: 'basic' as const, sandbox };

function check(
  id: string,
  run: (ctx: CheckContext) => Promise<void>,
  modes: ContractCheck['modes'] = ['basic'],
): ContractCheck {
  return { id, title: `check ${id}`, modes, spec: 'WIRE §4', rules: ['R-WH-13'], run };
}

function exchange(status: number, contentType: string, body: unknown): HttpExchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    request: {
      method: 'GET',
      url: 'http://market.invalid/v1/x',
      headers: {},
      bodyExcerpt: undefined,
      bodyBytes: 0,
    },
    status,
    advisories: [],
    headers: new Headers({ 'content-type': contentType }),
    text,
    durationMs: 1,
    json: () => JSON.parse(text) as unknown,
    mediaType: () => contentType.split(';')[0]!,
  };
}

const problem = (status: number, code: string) => ({
  type: `${KIT_PROBLEM_TYPE_PREFIX}${code}`,
  title: 'T',
  status,
  detail: 'D',
  code,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('runCheck', () => {
  it('reports pass, fail (expected / got / broken), skip with reason, and errors that stop a check', async () => {
    const pass = await runCheck(
      check('a.pass', async () => {}),
      options,
    );
    expect(pass).toMatchObject({ id: 'a.pass', status: 'pass', spec: 'WIRE §4' });

    const violation = new ContractViolation({
      expected: '401 for an old webhook',
      actual: '200',
      spec: 'WIRE §4',
    });
    const failed = await runCheck(
      check('a.fail', async () => {
        throw violation;
      }),
      options,
    );
    expect(failed).toMatchObject({
      status: 'fail',
      // The failure names the rule it applies: the check's, unless the violation names its own.
      message:
        'Expected: 401 for an old webhook\nGot:      200\nBroken:   WIRE §4\nRule:     R-WH-13 (docs/protocol.md)',
    });
    const narrower = await runCheck(
      check('a.fail-rule', async () => {
        throw new ContractViolation({ expected: 'APPROVED', actual: 'PENDING', rule: 'R-SVC-13' });
      }),
      options,
    );
    expect(narrower.message).toMatch(/\nRule: {5}R-SVC-13 \(docs\/protocol\.md\)$/);

    const skipped = await runCheck(
      check('a.skip', async (ctx) => ctx.skip('no session token')),
      options,
    );
    expect(skipped).toMatchObject({ status: 'skip', message: 'no session token' });

    const broken = await runCheck(
      check('a.error', async () => {
        throw new TypeError('boom');
      }),
      options,
    );
    expect(broken.status).toBe('fail');
    expect(broken.message).toBe('The check could not complete: TypeError: boom');
  });

  it('cuts a check that goes quiet: no request to the market for checkTimeoutMs', async () => {
    vi.useFakeTimers();
    const pending = runCheck(
      check('a.hang', () => new Promise<void>(() => {})),
      { ...options, checkTimeoutMs: 5000 },
    );
    await vi.advanceTimersByTimeAsync(4999);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({
      status: 'fail',
      message:
        'The check could not complete: Error: the check made no progress for 5000 ms (no request to the market in flight, sent or answered)',
    });
  });

  // A long check on a slow market (or a loaded machine) is progress, not a hang: a state table of
  // 300 requests at 200 ms each takes a minute. It used to be cut at 60 s whatever it was doing.
  it('never cuts a check that keeps talking to the market, however long it runs; counts quiet from the last answer', async () => {
    vi.useFakeTimers();
    // Each answer takes 3 s, well within the request's own timeout.
    const slowMarket = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    let answered = 0;
    const pending = runCheck(
      check('a.long', async (ctx) => {
        // 10 requests, 30 s in all, 6× the check timeout; then 4 s of quiet, under it.
        for (let i = 0; i < 10; i++) {
          await ctx.http.send(ctx.url('/orders/x'));
          answered++;
        }
        await new Promise((resolve) => setTimeout(resolve, 4000));
      }),
      { ...options, fetch: slowMarket, checkTimeoutMs: 5000 },
    );
    await vi.advanceTimersByTimeAsync(34_000);
    expect(answered).toBe(10);
    expect(await pending).toMatchObject({ status: 'pass' });

    // The same, but quiet for the whole timeout after its last answer: cut then, not earlier.
    const quietAfter = runCheck(
      check('a.long-then-quiet', async (ctx) => {
        await ctx.http.send(ctx.url('/orders/x'));
        await new Promise<void>(() => {});
      }),
      { ...options, fetch: slowMarket, checkTimeoutMs: 5000 },
    );
    let cut = false;
    void quietAfter.then(() => (cut = true));
    await vi.advanceTimersByTimeAsync(3000 + 4999);
    expect(cut).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await quietAfter).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/no progress for 5000 ms/),
    });
  });

  it("cuts a check at the run's deadline, busy or not", async () => {
    vi.useFakeTimers();
    const busyMarket = (async () => new Response('{}')) as typeof fetch;
    const pending = runCheck(
      check('a.busy', async (ctx) => {
        for (;;) {
          await ctx.http.send(ctx.url('/orders/x'));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
      { ...options, fetch: busyMarket, checkTimeoutMs: 5000, deadlineAt: Date.now() + 2000 },
    );
    await vi.advanceTimersByTimeAsync(2000);
    expect(await pending).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /^The check could not complete: Error: the check did not finish within 2000 ms, when the run's deadline passed\nLast request: GET /,
      ),
    });
  });

  it('gives each check a context: URLs under the prefix, the signed webhook URL, unique values, system auth', async () => {
    let seen: CheckContext | undefined;
    await runCheck(
      check('a.ctx', async (ctx) => {
        seen = ctx;
      }),
      { ...options, marketToken: 'secret' },
    );
    expect(seen!.url('/orders')).toBe('http://market.invalid/v1/orders');
    expect(seen!.webhookUrl).toBe('http://market.invalid/v1/webhook');
    expect(seen!.systemAuth).toEqual({ authorization: 'Bearer secret' });
    expect(seen!.unique('ref')).not.toBe(seen!.unique('ref'));
    expect(seen!.toleranceSeconds).toBe(300);
    expect(seen!.maxBodyBytes).toBe(262_144);
  });
});

describe('runContractSuite', () => {
  it('runs the checks of the mode (and --only), in order, and sums them up', async () => {
    const seen: string[] = [];
    const checks = [
      check('webhook.one', async () => {}),
      check('webhook.two', async (ctx) => ctx.skip('n/a')),
      check('orders.three', async () => {
        throw new ContractViolation({ expected: 'x', actual: 'y' });
      }),
      check('push-claims.four', async () => {}, ['data-sharing']),
    ];
    const report = await runContractSuite({ ...options, checks, onResult: (r) => seen.push(r.id) });
    expect(seen).toEqual(['webhook.one', 'webhook.two', 'orders.three']);
    expect(report).toMatchObject({
      ok: false,
      mode: 'basic',
      marketUrl: 'http://market.invalid',
      summary: { total: 3, passed: 1, failed: 1, skipped: 1 },
    });
    const only = await runContractSuite({ ...options, checks, only: ['webhook.'] });
    expect(only.results.map((r) => r.id)).toEqual(['webhook.one', 'webhook.two']);
    // A skipped check leaves the run INCOMPLETE, a failure unless skips are allowed.
    expect(only).toMatchObject({ ok: false, complete: false });
    const allowed = await runContractSuite({ ...options, checks, only: ['webhook.'], allowSkips: true });
    expect(allowed).toMatchObject({ ok: true, complete: false, allowSkips: true });
  });

  it('refuses an --only that names no check of the mode, and never passes a run of no checks', async () => {
    const checks = [
      check('webhook.one', async () => {}),
      check('push-claims.four', async () => {}, ['data-sharing']),
    ];
    await expect(runContractSuite({ ...options, checks, only: ['webhook.', 'offers.nope'] })).rejects.toThrow(
      /--only offers\.nope: no basic check/,
    );
    // push-claims.four exists, but not in basic mode.
    await expect(runContractSuite({ ...options, checks, only: ['push-claims.four'] })).rejects.toThrow(
      /no basic check/,
    );
    const none = await runContractSuite({ ...options, checks: [] });
    expect(none).toMatchObject({ ok: false, summary: { total: 0 } });
  });

  it('reports the dependants of a failed prerequisite as "not run (needs …)", not as failures', async () => {
    const creation = new ContractViolation({ expected: '201', actual: '200' });
    const checks = [
      check('orders.create.valid', async () => {
        throw new PrerequisiteFailed('orders.create.valid', creation);
      }),
      check('webhook.uses-an-order', async () => {
        throw new PrerequisiteFailed('orders.create.valid', creation);
      }),
    ];
    const report = await runContractSuite({ ...options, checks });
    expect(report.results.map((r) => [r.id, r.status, r.message?.split('\n')[0]])).toEqual([
      ['orders.create.valid', 'fail', 'Expected: 201'],
      ['webhook.uses-an-order', 'not-run', 'not run (needs orders.create.valid)'],
    ]);
    expect(report.summary).toMatchObject({ failed: 1, notRun: 1 });
    // Without the prerequisite in the run, the same violation is the check's own failure.
    const alone = await runContractSuite({ ...options, checks, only: ['webhook.'] });
    expect(alone.results[0]).toMatchObject({ status: 'fail' });
  });

  it('fails one check per defect: later checks meeting the same defect are "not run (needs …)"', async () => {
    // As the OpenAPI answer check throws it: the same mismatch of the same operation, whatever the request.
    const schemaBreak = (url: string) =>
      new ContractViolation({
        expected: 'an answer to createOrder that matches docs/openapi',
        actual: `/status must be string\n    POST ${url} → 201`,
        defect: 'openapi createOrder 201: /status must be string',
      });
    const otherBreak = new ContractViolation({
      expected: 'x',
      actual: 'y',
      defect: 'openapi getOrder 200: /id',
    });
    const checks = [
      check('orders.create.valid', async () => {
        throw schemaBreak('http://m/v1/orders#1');
      }),
      check('orders.status.one', async () => {
        throw schemaBreak('http://m/v1/orders#2');
      }),
      check('webhook.one', async () => {
        throw new PrerequisiteFailed('orders.create.valid', schemaBreak('http://m/v1/orders#3'));
      }),
      check('webhook.two', async () => {
        throw otherBreak;
      }),
    ];
    const report = await runContractSuite({ ...options, checks });
    expect(report.results.map((r) => [r.id, r.status, r.message?.split('\n')[0]])).toEqual([
      ['orders.create.valid', 'fail', 'Expected: an answer to createOrder that matches docs/openapi'],
      ['orders.status.one', 'not-run', 'not run (needs orders.create.valid)'],
      ['webhook.one', 'not-run', 'not run (needs orders.create.valid)'],
      ['webhook.two', 'fail', 'Expected: x'],
    ]);
    expect(report.summary).toMatchObject({ failed: 2, notRun: 2 });
  });

  it('does not start checks after the deadline and fails the run', async () => {
    const started: string[] = [];
    const checks = [check('webhook.one', async () => {}), check('webhook.two', async () => {})];
    const report = await runContractSuite({
      ...options,
      checks,
      deadlineAt: Date.now() - 1,
      onStart: (c) => started.push(c.id),
    });
    expect(started).toEqual([]);
    expect(report.results.map((r) => r.status)).toEqual(['not-run', 'not-run']);
    expect(report.results[0]?.message).toMatch(/deadline/);
    expect(report.ok).toBe(false);
  });

  it("shows the service's reason for refusing a call the market made during a failing check", async () => {
    const refusing = {
      ...sandbox,
      lastCallId: async () => 7,
      refusedCalls: async (since: number) =>
        since === 7
          ? [
              {
                id: 8,
                operation: 'createOrder',
                method: 'POST',
                path: '/v1/integration/bnpl-consumers/orders',
                status: 400,
                idempotencyKey: 'k',
                body: undefined,
                fault: undefined,
                responseBody: '{"success":false,"errors":[{"message":"payment_recipient.id: required"}]}',
              },
            ]
          : [],
    } as ContractSandbox;
    const result = await runCheck(
      check('a.refused', async () => {
        throw new ContractViolation({ expected: '201', actual: '502' });
      }),
      { ...options, sandbox: refusing },
    );
    expect(result.message).toMatch(
      /The service refused calls the market made meanwhile:\n {4}POST \/v1\/integration\/bnpl-consumers\/orders → 400 .*payment_recipient\.id: required/,
    );
  });

  it("refuses a check's fault on an order operation that names no order (the market's worker could take it)", async () => {
    const injected: unknown[] = [];
    const recording = {
      ...sandbox,
      injectFault: async (fault: unknown) => void injected.push(fault),
    } as ContractSandbox;
    const result = await runCheck(
      check('a.unscoped-fault', async (ctx) => {
        await ctx.sandbox.injectFault({ operation: 'getOrder', action: 'error', status: 500 });
      }),
      { ...options, sandbox: recording },
    );
    expect(result.status).not.toBe('pass');
    expect(result.message).toMatch(/getOrder fault without order_id/);
    expect(injected).toEqual([]);
  });

  it('reports advice a check notes without failing it', async () => {
    const result = await runCheck(
      check('a.advice', async (ctx) => {
        ctx.advise('not observable for this market');
        ctx.advise('not observable for this market');
      }),
      options,
    );
    expect(result).toMatchObject({ status: 'pass', advisories: ['not observable for this market'] });
  });

  it('fails a passing check whose error answers leak internals', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/plain');
      res.end('TypeError: x is undefined\n    at handler (/app/server.js:10:5)');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runCheck(
      check('a.leak', async (ctx) => {
        await ctx.http.send(`${url}/v1/orders`);
      }),
      options,
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/no internals in a 400 answer/);
  });
});

describe('expectProblem', () => {
  it('accepts a WIRE §2 problem and returns it', () => {
    const body = expectProblem(
      exchange(404, 'application/problem+json', problem(404, 'order_not_found')),
      404,
      { what: 'x', code: 'order_not_found' },
    );
    expect(body.code).toBe('order_not_found');
  });

  it("accepts a market's own vocabulary (any type URI, no code) and notes the kit's as advice", () => {
    const own = exchange(404, 'application/problem+json', {
      type: 'https://errors.shop.example/not-found',
      title: 'Not found',
      status: 404,
    });
    expectProblem(own, 404, { what: 'x', code: 'order_not_found' });
    expect(own.advisories.join()).toMatch(/kit vocabulary not used/);
    const bare = exchange(404, 'application/problem+json', { title: 'Not found' });
    expectProblem(bare, 404, { what: 'x' });
    const otherCode = exchange(404, 'application/problem+json', problem(404, 'not_found'));
    expectProblem(otherCode, 404, { what: 'x', code: 'order_not_found' });
    expect(otherCode.advisories.join()).toMatch(/"code" not_found where the kit uses order_not_found/);
  });

  it.each([
    [
      'another status',
      exchange(500, 'application/problem+json', problem(500, 'internal')),
      /Expected: 404 problem\+json/,
    ],
    [
      'plain JSON',
      exchange(404, 'application/json', problem(404, 'order_not_found')),
      /Content-Type: application\/problem\+json/,
    ],
    [
      'a status member that disagrees',
      exchange(404, 'application/problem+json', problem(400, 'order_not_found')),
      /"status" is not 404/,
    ],
    [
      'errors without paths',
      exchange(404, 'application/problem+json', {
        ...problem(404, 'order_not_found'),
        errors: [{ message: 'm' }],
      }),
      /"errors" is not a list/,
    ],
    [
      'a stack trace in the detail',
      exchange(404, 'application/problem+json', {
        ...problem(404, 'order_not_found'),
        detail: 'Error: no row\n    at findOrder (/srv/market/src/orders.js:41:13)',
      }),
      /no internals .*a stack frame/s,
    ],
    [
      'SQL in a 400',
      exchange(404, 'application/problem+json', {
        ...problem(404, 'order_not_found'),
        detail: 'SELECT id, status FROM orders WHERE id = $1 failed',
      }),
      /SQL/,
    ],
    [
      'a type that is not a URI',
      exchange(404, 'application/problem+json', { ...problem(404, 'order_not_found'), type: 'not a uri' }),
      /"type" is not a URI/,
    ],
  ])('refuses %s', (_, answer, message) => {
    let thrown: unknown;
    try {
      expectProblem(answer, 404, { what: 'for an unknown order', code: 'order_not_found' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ContractViolation);
    expect((thrown as ContractViolation).describe('WIRE §2')).toMatch(message);
  });
});

describe('demo users', () => {
  it('reads the top-level user and the users list, without duplicates', () => {
    const users = parseDemoUsers({
      id: 'u1',
      session_token: 's1',
      users: [
        { id: 'u1', session_token: 's1' },
        { id: 'u2', claims: { phone: { phone_number: '+84' } } },
        { name: 'no id' },
      ],
    });
    expect(users).toEqual([
      { id: 'u1', sessionToken: 's1', claims: undefined },
      { id: 'u2', sessionToken: undefined, claims: { phone: { phone_number: '+84' } } },
    ]);
    expect(parseDemoUsers({ name: 'only a name' })).toEqual([]);
    expect(parseDemoUsers('text')).toEqual([]);
  });

  it('knows whether claims carry a commitment for every scope', () => {
    expect(
      hasCommitments({
        phone: { phone_number: '+84', phone_commitment: 'c' },
        'o:s': { 'o:k': 1, 'o:s:commitment': 'c' },
      }),
    ).toBe(true);
    expect(hasCommitments({ phone: { phone_number: '+84' } })).toBe(false);
    expect(hasCommitments({})).toBe(false);
  });
});

describe('ContractHttp', () => {
  it('records exchanges with credentials redacted, and turns "no answer" into a violation', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const http = new ContractHttp({ timeoutMs: 2000 });
    const answer = await http.send(url, {
      json: { a: 1 },
      headers: { authorization: 'Bearer secret', 'x-api-key': 'k' },
    });
    expect(answer.json()).toEqual({ method: 'POST' });
    expect(answer.request.headers).toEqual({
      authorization: 'Bearer <redacted>',
      'x-api-key': '<redacted>',
      'content-type': 'application/json',
    });
    expect(http.last()).toBe(answer);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(http.send(url)).rejects.toThrow(
      /expected an HTTP answer from GET .* within 2000 ms; got no answer \(Error: connect ECONNREFUSED /,
    );
  });
});
