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

/** Oldest first; at most `limit` (default all). */
export async function listJobs<P>(
  q: Queryable,
  filter: { kind?: string; status?: JobStatus; limit?: number } = {},
): Promise<Job<P>[]> {
  const { rows } = await q.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM bnpl_jobs
      WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR status = $2)
      ORDER BY created_at, id
      LIMIT $3::int`,
    [filter.kind ?? null, filter.status ?? null, filter.limit ?? null],
  );
  return rows.map((r) => toJob<P>(r));
}
