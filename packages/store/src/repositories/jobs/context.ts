import type { JobRetryPolicy } from '../../records.js';

export interface JobContext {
  /**
   * The clock for due times and leases. Undefined means the database's `now()`, which all
   * processes on one PostgreSQL share; tests inject a clock to move time without waiting.
   */
  now: (() => Date) | undefined;
  retry: JobRetryPolicy;
}

/** `$now` in every statement: the injected clock, or NULL so that SQL falls back to `now()`. */
export function nowParam(ctx: JobContext): Date | null {
  return ctx.now?.() ?? null;
}
