/**
 * Crash safety of disbursement, with the server in a child process: readiness arrives, the worker
 * asks the service to disburse, the service applies it but its answer never comes back, and the
 * server is killed (SIGKILL) right then. After a restart on the same database the job's lease
 * expires, the worker runs it again with the same idempotency key, and the provider pays exactly
 * once. The service is a standalone sandbox in the test process, so its records survive the crash.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BackendName,
  type ChildServer,
  dropSchema,
  freshSchema,
  orderRequest,
  spawnServer,
  startExternalService,
  TEST_DATABASE_URL,
  waitFor,
} from '@bnpl-kit/reference-server/testing';
import { describe, expect, it, onTestFinished } from 'vitest';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

async function storedStatus(server: ChildServer, orderId: string, token: string): Promise<unknown> {
  // The market's own token: the page shows an order only to it or to the signed link it handed out.
  const response = await fetch(`${server.url}/bnpl/complete?order_id=${orderId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { status: unknown }).status;
}

/**
 * One backend, the cheapest to start: what is proven here is the worker's recovery (the lease,
 * the same idempotency key, one payment), the same code on either database. That PGlite keeps
 * committed work and the pending job through a SIGKILL is packages/store/test/restart.test.ts's
 * ("survives SIGKILL"); a lease expiring on each backend is packages/store/test/jobs.test.ts's.
 */
const BACKEND: BackendName = TEST_DATABASE_URL ? 'postgres' : 'pglite';

describe.each([BACKEND])('crash between readiness and disbursement (%s)', (backend) => {
  it('disburses exactly once after a restart', async () => {
    const service = await startExternalService();
    onTestFinished(() => service.close());
    const sandbox = service.server.sandbox;
    const dataDir = await mkdtemp(join(tmpdir(), 'bnpl-crash-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const schema = freshSchema();
    if (backend === 'postgres') onTestFinished(() => dropSchema(schema));
    const env = {
      ...service.env,
      MODE: 'sandbox',
      PORT: '0',
      DATA_DIR: dataDir,
      JOB_LEASE_MS: '1500',
      LOG_LEVEL: 'info',
      ...(backend === 'postgres' && { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }),
    };
    const start = async () => {
      const server = await spawnServer({ appDir: APP_DIR, env });
      onTestFinished(async () => {
        server.process.kill('SIGKILL');
        await server.exited;
      });
      sandbox.organizations.update(service.organizationId, { webhookUrls: [`${server.url}/v1/webhook`] });
      return server;
    };

    const first = await start();
    const created = await fetch(`${first.url}/v1/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${service.env.MARKET_API_TOKEN}`,
      },
      body: JSON.stringify(orderRequest(`crash-${Date.now()}`, '990000')),
    });
    expect(created.status).toBe(201);
    const orderId = ((await created.json()) as { id: string }).id;
    sandbox.orders.approve(orderId);
    await waitFor(
      async () => (await storedStatus(first, orderId, service.env.MARKET_API_TOKEN!)) === 'APPROVED',
      {
        what: 'APPROVED stored',
      },
    );

    // The service will apply the next disbursement but never answer it, and the PAID status update
    // that follows is lost: only the restarted worker can find out that the order was paid.
    sandbox.faults.inject({
      target: 'route',
      operation: 'disburseOrder',
      action: 'timeout',
      afterEffect: true,
    });
    sandbox.faults.inject({ target: 'webhook', action: 'drop', eventType: 'BNPL_ORDER_STATUS_UPDATED' });
    // Readiness by the disbursement-requirement event (the status stays APPROVED).
    sandbox.orders.confirmReadiness(orderId, 'requirement');
    await waitFor(() => sandbox.disbursements().some((d) => d.orderId === orderId), {
      what: 'the service to apply the disbursement',
    });
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = await start();
    await waitFor(
      async () => (await storedStatus(second, orderId, service.env.MARKET_API_TOKEN!)) === 'PAID',
      {
        what: 'the restarted worker to finish the disbursement',
      },
    );
    expect(sandbox.disbursements().filter((d) => d.orderId === orderId)).toHaveLength(1);
    const calls = sandbox.calls.list({ operation: 'disburseOrder' });
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map((c) => c.idempotencyKey))).toEqual(new Set([`disburse:${orderId}`]));
    // Logged just after the status change commits: wait for the line to come through stdout.
    const requested = await waitFor(() => second.logs.find((l) => l.msg === 'disbursement requested'), {
      what: 'the restarted worker to log the disbursement',
    });
    // The job's first attempt died with the first process; a loaded machine may need one more.
    expect(requested).toMatchObject({ orderId });
    expect(requested.attempt).toBeGreaterThanOrEqual(2);

    // Graceful shutdown of the survivor: SIGTERM → drained, stopped, exit code 0.
    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.logs.some((l) => l.msg === 'stopped')).toBe(true);
  });
});
