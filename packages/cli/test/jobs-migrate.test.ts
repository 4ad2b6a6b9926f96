/**
 * `bnpl-kit migrate` and `bnpl-kit jobs list|requeue` on an embedded store in a data directory
 * (the reference servers' layout, `<dir>/pglite`): migrate applies once and then reports up to
 * date; the job commands refuse an unmigrated database, list with counts, and requeue failed jobs
 * (exit 1 for IDs they could not requeue).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@bnpl-kit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

describe('bnpl-kit migrate and jobs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bnpl-cli-jobs-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A failed job, written the way a worker would leave it. */
  async function failedJob(kind: string): Promise<string> {
    const store = await openStore({ dataDir: join(dir, 'pglite') });
    try {
      const { job } = await store.enqueueJob({
        kind,
        payload: { orderId: 'o-1' },
        dedupeKey: kind,
        maxAttempts: 1,
      });
      await store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
      await store.failJob(job.id, new Error('the service refused'));
      return job.id;
    } finally {
      await store.close();
    }
  }

  /** A job that failed once with `message` and then succeeded, as a worker would leave it. */
  async function doneAfterAFailure(kind: string, message: string): Promise<string> {
    const store = await openStore({ dataDir: join(dir, 'pglite') });
    try {
      const { job } = await store.enqueueJob({ kind, payload: {}, dedupeKey: kind, maxAttempts: 3 });
      await store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
      await store.failJob(job.id, new Error(message), { retryAt: new Date(0) });
      await store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
      await store.completeJob(job.id);
      return job.id;
    } finally {
      await store.close();
    }
  }

  it('refuses jobs commands before migrate, then migrates once', async () => {
    const early = await cli('jobs', 'list', '--data-dir', dir);
    expect(early.status).toBe(2);
    expect(early.stderr).toContain('bnpl-kit migrate');

    const first = await cli('migrate', '--data-dir', dir, '--json');
    expect(first.status).toBe(0);
    const result = JSON.parse(first.stdout) as { applied: string[]; recorded: string[] };
    expect(result.applied).toEqual(result.recorded);
    expect(result.applied).toContain('0003_reconciliation_retention');

    const again = await cli('migrate', '--data-dir', dir);
    expect(again).toMatchObject({ status: 0 });
    expect(again.stdout).toContain(`up to date (${result.recorded.length} migrations recorded)`);
  });

  it('lists failed jobs and requeues them', async () => {
    const id = await failedJob('disburse');
    const listed = await cli('jobs', 'list', '--data-dir', dir, '--status', 'failed', '--json');
    expect(listed.status).toBe(0);
    const body = JSON.parse(listed.stdout) as { counts: Record<string, number>; jobs: { id: string }[] };
    expect(body.counts.failed).toBe(1);
    expect(body.jobs.map((j) => j.id)).toEqual([id]);
    const table = await cli('jobs', 'list', '--data-dir', dir);
    expect(table.stdout).toMatch(/^jobs: pending 0, running 0, done 0, failed 1$/m);
    expect(table.stdout).toContain('the service refused');

    const requeued = await cli('jobs', 'requeue', id, 'no-such-job', '--data-dir', dir);
    expect(requeued.status).toBe(1);
    expect(requeued.stdout).toContain(`requeued ${id} (disburse)`);
    expect(requeued.stderr).toContain('no-such-job: no such job');
    // No longer failed: pending again, due now, attempts from zero (the store's tests check the row).
    expect((await cli('jobs', 'requeue', '--failed', '--data-dir', dir)).stdout).toContain('no failed jobs');
    expect((await cli('jobs', 'requeue', '--data-dir', dir)).status).toBe(2);
    expect((await cli('jobs', 'list', '--status', 'stuck', '--data-dir', dir)).status).toBe(2);
  });

  it('shows last_error whole in the table, and keeps it on a job that succeeded after failing', async () => {
    const message = `the service answered 503 upstream_unavailable after ${'a long wait, '.repeat(8)}then gave up`;
    const id = await doneAfterAFailure('notify', message);
    const table = await cli('jobs', 'list', '--status', 'done', '--data-dir', dir);
    const line = table.stdout.split('\n').find((l) => l.startsWith(id));
    expect(line?.split('\t')).toEqual([
      id,
      'notify',
      'done',
      '2/3',
      expect.any(String),
      'notify',
      `Error: ${message}`,
    ]);
    const json = await cli('jobs', 'list', '--status', 'done', '--json', '--data-dir', dir);
    const body = JSON.parse(json.stdout) as {
      jobs: { id: string; attempts: number; last_error: string | null }[];
    };
    expect(body.jobs.find((j) => j.id === id)).toMatchObject({
      attempts: 2,
      last_error: `Error: ${message}`,
    });
  });
});
