/**
 * Readiness and graceful drain, for a market's `/readyz` and its shutdown. Readiness is false while
 * draining, so a load balancer stops sending traffic before the server stops accepting it; the
 * drain runs its steps once, in order (typically: HTTP server, worker, store).
 */
import { type MarketLogger, silentLogger } from '@bnpl-kit/core';
import type { Store } from '../store.js';
import type { JobWorker } from './job-worker.js';

export interface Readiness {
  ready: boolean;
  status: 'ready' | 'not_ready' | 'draining';
  checks: { database: boolean; migrations: boolean; worker?: boolean };
}

export interface ReadinessInput {
  store: Pick<Store, 'ping' | 'migrationsApplied'>;
  /** When given, not ready unless it is running. */
  worker?: Pick<JobWorker, 'state'> | undefined;
  /** When given and draining, not ready (without asking the database). */
  drain?: Pick<Drain, 'draining'> | undefined;
}

/** The database answers, every migration is applied, the worker (if any) runs, and no drain started. */
export async function checkReadiness(input: ReadinessInput): Promise<Readiness> {
  const worker = input.worker === undefined ? undefined : input.worker.state === 'running';
  if (input.drain?.draining) {
    return { ready: false, status: 'draining', checks: { database: false, migrations: false, worker } };
  }
  const database = await input.store.ping();
  const migrations = database && (await input.store.migrationsApplied());
  const ready = database && migrations && worker !== false;
  const checks = worker === undefined ? { database, migrations } : { database, migrations, worker };
  return { ready, status: ready ? 'ready' : 'not_ready', checks };
}

/** `/readyz` as a fetch-style answer: 200 when ready, else 503; never cached. */
export async function readinessResponse(input: ReadinessInput): Promise<Response> {
  const readiness = await checkReadiness(input);
  return Response.json(
    { status: readiness.status, checks: readiness.checks },
    { status: readiness.ready ? 200 : 503, headers: { 'cache-control': 'no-store' } },
  );
}

export type DrainStep = readonly [name: string, run: () => Promise<unknown> | unknown];

export interface Drain {
  /** True from the first `start()` on (readiness answers 503 from then). */
  readonly draining: boolean;
  /**
   * Runs the steps once, in order; later calls return the same promise. A failing step is logged
   * and the next steps still run (the database is closed even if the HTTP server would not close);
   * the promise then rejects with the first failure.
   *
   * `graceMs` (on a signal: a load balancer's health-check interval times its unhealthy threshold,
   * or Kubernetes' readiness period): readiness answers 503 at once, but the steps (the first
   * stops accepting) wait this long, so balancers see the 503 and move traffic away before any
   * connection is refused.
   */
  start(options?: { graceMs?: number }): Promise<void>;
}

export function createDrain(steps: readonly DrainStep[], options: { logger?: MarketLogger } = {}): Drain {
  const logger = options.logger ?? silentLogger;
  let running: Promise<void> | undefined;
  return {
    get draining() {
      return running !== undefined;
    },
    start(startOptions = {}) {
      running ??= (async () => {
        const graceMs = startOptions.graceMs ?? 0;
        if (graceMs > 0) {
          logger.info({ graceMs }, 'draining: readiness answers 503; still serving for the grace period');
          await new Promise((resolve) => setTimeout(resolve, graceMs));
        }
        let failure: unknown;
        for (const [name, run] of steps) {
          try {
            await run();
          } catch (error) {
            logger.error({ step: name, err: error }, 'shutdown step failed');
            failure ??= error;
          }
        }
        if (failure !== undefined) throw failure;
      })();
      return running;
    },
  };
}

/**
 * Drains on SIGINT/SIGTERM; a second signal exits at once. Returns a function that removes the handlers.
 * With `exit`, the process exits once drained (0, or 1 when a step failed): for a server whose
 * listener is not yours to close (Next.js's `next start`), which would otherwise keep it alive.
 */
export function drainOnSignals(
  drain: Drain,
  options: {
    logger?: MarketLogger;
    signals?: readonly NodeJS.Signals[];
    /** How long readiness answers 503 while the server still serves (`Drain.start`); default 0. */
    graceMs?: number;
    /** Exit the process when the drain ends (0 drained, 1 a step failed); default: only set `exitCode`. */
    exit?: boolean;
  } = {},
): () => void {
  const logger = options.logger ?? silentLogger;
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const finish = (code: number) => {
    if (options.exit) process.exit(code);
    process.exitCode = code;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (drain.draining) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down');
    drain.start({ graceMs: options.graceMs }).then(
      () => finish(0),
      () => finish(1),
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
