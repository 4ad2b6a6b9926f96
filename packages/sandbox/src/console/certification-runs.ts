/**
 * The console's certification runs, in memory: the last `keep` of them, one running at a time (a
 * run drives the sandbox and the market; two at once would trip over each other's orders and faults).
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { KitError } from '@bnpl-kit/core';
import type {
  CertificationCheck,
  CertificationRequest,
  CertificationRunner,
} from './certification-runner.js';

export interface CertificationRun {
  id: string;
  mode: IntegrationMode;
  organizationId: string;
  apiBaseUrl: string | undefined;
  startedAt: string;
  finishedAt: string | undefined;
  state: 'running' | 'passed' | 'failed' | 'error';
  checks: CertificationCheck[];
  summary: Record<string, number> | undefined;
  error: string | undefined;
  html: string | undefined;
}

export const KEPT_RUNS = 10;

export function createCertificationRuns(runner: CertificationRunner, keep = KEPT_RUNS) {
  const runs: CertificationRun[] = [];
  let counter = 0;
  return {
    runner,
    /** Newest first. */
    list: (): readonly CertificationRun[] => [...runs].reverse(),
    get: (id: string) => runs.find((run) => run.id === id),
    start(request: CertificationRequest): CertificationRun {
      if (!runner.modes.includes(request.mode)) {
        throw new KitError(
          'validation_failed',
          `This sandbox certifies ${runner.modes.join(' or ')}, not ${request.mode}`,
        );
      }
      const running = runs.find((run) => run.state === 'running');
      if (running) throw new KitError('conflict', `Run ${running.id} is still running`);
      counter += 1;
      const run: CertificationRun = {
        id: `run_${counter}_${Date.now().toString(36)}`,
        ...request,
        startedAt: new Date().toISOString(),
        finishedAt: undefined,
        state: 'running',
        checks: [],
        summary: undefined,
        error: undefined,
        html: undefined,
      };
      runs.push(run);
      if (runs.length > keep) runs.splice(0, runs.length - keep);
      runner
        .start(request, (check) => run.checks.push(check))
        .then(
          (outcome) => {
            Object.assign(run, {
              state: outcome.ok ? 'passed' : 'failed',
              summary: outcome.summary,
              html: outcome.html,
            });
            run.finishedAt = new Date().toISOString();
          },
          (error: unknown) => {
            run.state = 'error';
            run.error = error instanceof Error ? error.message : String(error);
            run.finishedAt = new Date().toISOString();
          },
        );
      return run;
    },
  };
}

export type CertificationRuns = ReturnType<typeof createCertificationRuns>;
