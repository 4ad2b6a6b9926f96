/**
 * `bnpl-kit jobs list|requeue`: the worker's job table (`@bnpl-kit/store/worker`) for an operator.
 * `list` shows jobs (failed ones are what needs a person); `requeue` makes failed or waiting jobs
 * due now with their attempts counted from zero. Both refuse a database whose migrations are not
 * all applied (run `bnpl-kit migrate` first) rather than migrating it behind the operator's back.
 */
import type { Job, JobStatus, Store } from '@bnpl-kit/store';
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import type { CliIO, CommandModule } from '../index.js';
import { type DatabaseOptions, openDatabase, withDatabaseOptions } from './database.js';

const STATUSES: readonly JobStatus[] = ['pending', 'running', 'done', 'failed'];

function status(value: string): JobStatus {
  if (!(STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${STATUSES.join(', ')}`);
  }
  return value as JobStatus;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!(Number.isInteger(n) && n > 0)) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

async function withStore<T>(options: DatabaseOptions, work: (store: Store) => Promise<T>): Promise<T> {
  const { store, where } = await openDatabase(options, false);
  try {
    if (!(await store.migrationsApplied())) {
      throw new Error(`${where} is not migrated to this version; run \`bnpl-kit migrate\` first`);
    }
    return await work(store);
  } finally {
    await store.close();
  }
}

/** One tab-separated line; `last_error` whole, last, on one line (what an operator reads first). */
function jobLine(job: Job): string {
  const error = job.lastError === undefined ? '' : job.lastError.replace(/\s+/g, ' ');
  return [
    job.id,
    job.kind,
    job.status,
    `${job.attempts}/${job.maxAttempts}`,
    job.runAt.toISOString(),
    job.dedupeKey,
    error,
  ].join('\t');
}

function jobJson(job: Job) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    run_at: job.runAt.toISOString(),
    dedupe_key: job.dedupeKey,
    payload: job.payload,
    last_error: job.lastError ?? null,
    locked_by: job.lockedBy ?? null,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
  };
}

interface ListOptions extends DatabaseOptions {
  status?: JobStatus;
  kind?: string;
  limit: number;
  json?: boolean;
}

function listCommand(jobs: Command, io: CliIO) {
  withDatabaseOptions(jobs.command('list').description('list jobs, oldest first, with the counts per status'))
    .option('--status <status>', `only jobs in this status (${STATUSES.join(', ')})`, status)
    .option('--kind <kind>', 'only jobs of this kind (disburse, reconcile, prune, or your own)')
    .option('--limit <n>', 'at most this many jobs', positiveInteger, 100)
    .option('--json', 'print { counts, jobs } as JSON')
    .action(async (options: ListOptions) => {
      await withStore(options, async (store) => {
        const listed = await store.listJobs({
          status: options.status,
          kind: options.kind,
          limit: options.limit,
        });
        const counts = await store.countJobs();
        if (options.json) {
          io.stdout(`${JSON.stringify({ counts: counts.byStatus, jobs: listed.map(jobJson) }, null, 2)}\n`);
          return;
        }
        const summary = STATUSES.map((s) => `${s} ${counts.byStatus[s]}`).join(', ');
        const header = ['id', 'kind', 'status', 'attempts', 'run_at', 'dedupe_key', 'last_error'].join('\t');
        io.stdout([`jobs: ${summary}`, header, ...listed.map(jobLine), ''].join('\n'));
      });
    });
}

interface RequeueOptions extends DatabaseOptions {
  failed?: boolean;
  kind?: string;
}

function requeueCommand(jobs: Command, io: CliIO) {
  withDatabaseOptions(
    jobs
      .command('requeue')
      .description('make failed (or waiting) jobs due now, attempts counted from zero')
      .argument('[ids...]', 'job IDs (from `jobs list`)'),
  )
    .option('--failed', 'every failed job (with --kind: of that kind)')
    .option('--kind <kind>', 'with --failed: only jobs of this kind')
    .action(async (ids: string[], options: RequeueOptions) => {
      if (ids.length === 0 && !options.failed)
        throw new Error('give job IDs, or --failed for every failed job');
      if (ids.length > 0 && options.failed) throw new Error('give job IDs or --failed, not both');
      const refused = await withStore(options, async (store) => {
        const targets = options.failed
          ? (await store.listJobs({ status: 'failed', kind: options.kind })).map((job) => job.id)
          : ids;
        let notRequeued = 0;
        for (const id of targets) {
          const result = await store.requeueJob(id);
          if (result.requeued) io.stdout(`requeued ${id} (${result.job?.kind})\n`);
          else {
            notRequeued++;
            io.stderr(
              result.job === undefined
                ? `${id}: no such job\n`
                : `${id}: not requeued, it is ${result.job.status} (only failed or pending jobs are)\n`,
            );
          }
        }
        if (options.failed && targets.length === 0) io.stdout('no failed jobs\n');
        return notRequeued;
      });
      if (refused > 0) throw new CommanderError(1, 'bnpl-kit.requeue', `${refused} job(s) not requeued`);
    });
}

export const jobsCommand: CommandModule = (program, io) => {
  const jobs = program
    .command('jobs')
    .description("inspect and requeue the worker's jobs (DATABASE_URL, or the embedded store)");
  listCommand(jobs, io);
  requeueCommand(jobs, io);
};
