/** The `bnpl_jobs` row as the driver returns it, and its mapping to the `Job` record. */
import type { Job, JobStatus } from '../../records.js';

export interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  dedupe_key: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_until: Date | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

const JOB_FIELDS = [
  'id',
  'kind',
  'payload',
  'dedupe_key',
  'status',
  'attempts',
  'max_attempts',
  'run_at',
  'locked_until',
  'locked_by',
  'last_error',
  'created_at',
  'updated_at',
];

/** The column list, qualified with `alias.` for statements that join. */
export const jobColumns = (alias?: string): string =>
  JOB_FIELDS.map((f) => (alias ? `${alias}.${f}` : f)).join(', ');

export const JOB_COLUMNS = jobColumns();

export function toJob<P>(row: JobRow): Job<P> {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload as P,
    dedupeKey: row.dedupe_key,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    lockedUntil: row.locked_until ?? undefined,
    lockedBy: row.locked_by ?? undefined,
    lastError: row.last_error ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The first row as a job, for statements that return at most one. */
export function firstJob<P>(rows: JobRow[]): Job<P> | undefined {
  return rows[0] === undefined ? undefined : toJob<P>(rows[0]);
}
