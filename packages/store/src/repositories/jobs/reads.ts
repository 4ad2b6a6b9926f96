import type { Queryable } from '../../executor/types.js';
import type { Job, JobStatus } from '../../records.js';
import { firstJob, JOB_COLUMNS, type JobRow, toJob } from './rows.js';

export async function findJobBy<P>(
  q: Queryable,
  column: 'id' | 'dedupe_key',
  value: string,
): Promise<Job<P> | undefined> {
  const { rows } = await q.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM bnpl_jobs WHERE ${column} = $1`, [
    value,
  ]);
  return firstJob<P>(rows);
}

/** Oldest first. */
export async function listJobs<P>(
  q: Queryable,
  filter: { kind?: string; status?: JobStatus } = {},
): Promise<Job<P>[]> {
  const { rows } = await q.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM bnpl_jobs
      WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR status = $2)
      ORDER BY created_at, id`,
    [filter.kind ?? null, filter.status ?? null],
  );
  return rows.map((r) => toJob<P>(r));
}
