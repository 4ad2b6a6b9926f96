import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/index.js';
import { randomSchemaName, TEST_DATABASE_URL, unique, withAdminClient } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDataDir(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'bnpl-store-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  return join(parent, 'pglite');
}

/** Writes an order, a status change with its event, a user with commitments and a job. */
async function writeSample(store: Store) {
  const order = newOrder();
  await store.insertOrder(order);
  const eventId = unique('evt');
  await store.transaction(async (tx) => {
    await tx.getOrderForUpdate(order.id);
    await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED');
    await tx.setOrderStatus({ orderId: order.id, from: 'PENDING', to: 'APPROVED', source: 'webhook' });
    await tx.enqueueJob({
      kind: 'disburse',
      payload: { orderId: order.id },
      dedupeKey: `disburse:${order.id}`,
    });
  });
  const user = await store.createUser({ credifyId: unique('credify'), profile: { email: 'a@example.com' } });
  await store.upsertCommitments(user.id, { email: 'commitment' });
  return { order, eventId, user };
}

async function expectSample(store: Store, sample: Awaited<ReturnType<typeof writeSample>>) {
  expect((await store.findOrderById(sample.order.id))?.status).toBe('APPROVED');
  expect(await store.isEventProcessed(sample.eventId)).toBe(true);
  expect(await store.findJobByDedupeKey(`disburse:${sample.order.id}`)).toMatchObject({ status: 'pending' });
  expect(await store.findUserByCredifyId(sample.user.credifyId!)).toEqual(sample.user);
  expect(await store.listCommitments(sample.user.id)).toEqual({ email: 'commitment' });
  expect(await store.migrationsApplied()).toBe(true);
}

// Creating a PGlite data directory runs initdb in WebAssembly: seconds, more on a busy CI machine.
describe('restart on a PGlite data directory', () => {
  it('keeps the data across close and reopen', async () => {
    const dataDir = await tempDataDir();
    const first = await openStore({ dataDir });
    expect(first.dialect).toBe('pglite');
    expect(first.location).toBe(dataDir);
    const sample = await writeSample(first);
    await first.close();
    await first.close(); // idempotent

    const second = await openStore({ dataDir });
    cleanups.push(() => second.close());
    await expectSample(second, sample);
    expect(await second.migrate()).toMatchObject({ applied: [] });
  });

  it('refuses to open a directory twice in one process, and releases it on close', async () => {
    const dataDir = await tempDataDir();
    const first = await openStore({ dataDir });
    await expect(openStore({ dataDir })).rejects.toThrow(/already open in this process/);
    expect((await readFile(`${dataDir}.lock`, 'utf8')).split(' ')[0]).toBe(String(process.pid));
    await first.close();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    const again = await openStore({ dataDir });
    await again.close();
  });

  it('takes over a lock file left by a process that no longer exists', async () => {
    const dataDir = await tempDataDir();
    await (await openStore({ dataDir })).close();
    const exited = spawn(process.execPath, ['-e', '0']);
    const deadPid = exited.pid!;
    await new Promise((resolve) => exited.once('exit', resolve));
    await writeFile(`${dataDir}.lock`, String(deadPid));
    const store = await openStore({ dataDir });
    cleanups.push(() => store.close());
    expect(await store.ping()).toBe(true);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'takes over a lock whose PID now belongs to another live process, and honours its live owner',
    async () => {
      const dataDir = await tempDataDir();
      await (await openStore({ dataDir })).close();
      // A live process that is not the lock's owner: same PID, another start time (PID reuse).
      const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      cleanups.push(async () => void other.kill('SIGKILL'));
      await new Promise((resolve) => other.once('spawn', resolve));
      const started = (await readFile(`/proc/${other.pid}/stat`, 'utf8').catch(() => undefined))
        ?.split(') ')[1]
        ?.split(' ')[19];
      await writeFile(`${dataDir}.lock`, `${other.pid} ${Number(started ?? 0) + 1}`);
      const store = await openStore({ dataDir });
      expect(await store.ping()).toBe(true);
      await store.close();
      // The same live process with its real start time does own the directory: refused.
      if (started !== undefined) {
        await writeFile(`${dataDir}.lock`, `${other.pid} ${started}`);
        await expect(openStore({ dataDir })).rejects.toThrow(new RegExp(`in use by process ${other.pid}`));
      }
    },
  );

  it('survives SIGKILL: committed work is there after restart, and the live process kept others out', async () => {
    const dataDir = await tempDataDir();
    const orderId = unique('order');
    const eventId = unique('evt');
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'crash-child.ts'),
        dataDir,
        orderId,
        eventId,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    await waitForLine(child, 'READY');

    await expect(openStore({ dataDir })).rejects.toThrow(new RegExp(`in use by process ${child.pid}`));

    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const store = await openStore({ dataDir });
    cleanups.push(() => store.close());
    expect((await store.findOrderById(orderId))?.status).toBe('DISBURSING');
    expect(await store.isEventProcessed(eventId)).toBe(true);
    expect(await store.findJobByDedupeKey(`disburse:${orderId}`)).toMatchObject({
      status: 'pending',
      attempts: 0,
    });
  });
});

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(line)) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`child exited (${code ?? signal}) before ${line}: ${err}`)),
    );
  });
}

// Only defined when a PostgreSQL is configured; the PGlite tests above always run.
if (TEST_DATABASE_URL) {
  const databaseUrl = TEST_DATABASE_URL;
  describe('restart on PostgreSQL', () => {
    it('keeps the data across close and reopen', async () => {
      const schema = randomSchemaName();
      cleanups.push(() => withAdminClient((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)));
      const first = await openStore({ databaseUrl, schema });
      expect(first.dialect).toBe('postgres');
      const sample = await writeSample(first);
      await first.close();

      const second = await openStore({ databaseUrl, schema });
      cleanups.push(() => second.close());
      await expectSample(second, sample);
    });
  });
}
