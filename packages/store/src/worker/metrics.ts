/**
 * The worker's metrics, on the kit's meter (`@bnpl-kit/core`, OpenTelemetry API only: no-op until the
 * application registers an SDK). Names and attributes are documented in the store README; dashboards
 * and alerts are built on them:
 *
 * - `bnpl.jobs.queue.depth` (gauge): jobs per status, read from the job table when the metrics are
 *   collected (a scrape), so it is the database's truth for every process, not this one's.
 * - `bnpl.jobs.queue.oldest_age` (gauge, s): how long the oldest due pending job has waited; 0
 *   when none waits. A growing age means no worker runs, or runs too slowly.
 * - `bnpl.jobs.runs` (counter): job runs by kind and outcome (`done`, `retry`, `failed`, `lost`: the
 *   lease was lost mid-run, so the outcome was not recorded and another worker may run it again).
 * - `bnpl.reconciliation.corrections` (counter): orders reconciliation moved, by from → to status.
 */
import { instrumentsOf } from '@bnpl-kit/core';
import type { JobStatus } from '../records.js';
import type { JobCounts } from '../repositories/jobs.js';

export const WORKER_METRIC_NAMES = {
  queueDepth: 'bnpl.jobs.queue.depth',
  oldestAge: 'bnpl.jobs.queue.oldest_age',
  jobRuns: 'bnpl.jobs.runs',
  reconciliationCorrections: 'bnpl.reconciliation.corrections',
} as const;

const instruments = instrumentsOf((meter) => ({
  queueDepth: meter.createObservableGauge(WORKER_METRIC_NAMES.queueDepth, {
    description: 'Jobs in the job table, by status',
  }),
  oldestAge: meter.createObservableGauge(WORKER_METRIC_NAMES.oldestAge, {
    description: 'Seconds the oldest due pending job has been waiting (0 when none waits)',
    unit: 's',
  }),
  jobRuns: meter.createCounter(WORKER_METRIC_NAMES.jobRuns, {
    description:
      'Job runs by kind and outcome: done, retry (failed, will run again), failed (for good) or lost (lease lost mid-run)',
  }),
  reconciliationCorrections: meter.createCounter(WORKER_METRIC_NAMES.reconciliationCorrections, {
    description: 'Order statuses reconciliation corrected, by from and to status',
  }),
}));

export function recordJobRun(kind: string, outcome: 'done' | 'retry' | 'failed' | 'lost'): void {
  instruments().jobRuns.add(1, { 'bnpl.job_kind': kind, 'bnpl.outcome': outcome });
}

export function recordReconciliationCorrection(from: string, to: string): void {
  instruments().reconciliationCorrections.add(1, { 'bnpl.from_status': from, 'bnpl.to_status': to });
}

const STATUSES: readonly JobStatus[] = ['pending', 'running', 'done', 'failed'];

/**
 * Observes the queue gauges from `countJobs` at every collection, with `now` the store's clock.
 * Returns what unregisters it (the worker's stop). A query that fails observes nothing: a gap in
 * the series, not a false zero.
 */
export function observeJobQueue(source: { countJobs(): Promise<JobCounts>; now: () => Date }): () => void {
  const { queueDepth, oldestAge } = instruments();
  let pending: Promise<JobCounts | undefined> | undefined;
  // Both gauges are read in one collection: one query serves them.
  const counts = () => {
    pending ??= source
      .countJobs()
      .catch(() => undefined)
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
  const depth = async (result: { observe(value: number, attributes: Record<string, string>): void }) => {
    const read = await counts();
    if (read === undefined) return;
    for (const status of STATUSES) result.observe(read.byStatus[status], { 'bnpl.job_status': status });
  };
  const age = async (result: { observe(value: number): void }) => {
    const read = await counts();
    if (read === undefined) return;
    const waitedMs = read.oldestDueAt ? source.now().getTime() - read.oldestDueAt.getTime() : 0;
    result.observe(Math.max(0, waitedMs) / 1000);
  };
  queueDepth.addCallback(depth);
  oldestAge.addCallback(age);
  return () => {
    queueDepth.removeCallback(depth);
    oldestAge.removeCallback(age);
  };
}
