/**
 * The console's certification API, next to the admin API and guarded like it:
 *   GET  /sandbox/certification                  → available?, modes, notice, target, past runs
 *   POST /sandbox/certification/runs {mode}      → 202, the run (one at a time: 409 while one runs)
 *   GET  /sandbox/certification/runs/:id         → the run with the checks so far (the page polls it)
 *   GET  /sandbox/certification/runs/:id/report  → the finished run's report page (the HTML reporter's)
 * Without a runner every route answers, and the index says certification is not available.
 */
import { INTEGRATION_MODES, KitError } from '@bnpl-kit/core';
import { problemResponse } from '@bnpl-kit/core/wire';
import { json, readJson } from '../http.js';
import type { Sandbox } from '../sandbox.js';
import type { CertificationRun, CertificationRuns } from './certification-runs.js';

export const CERTIFICATION_API_PATH = '/sandbox/certification';

export const NOT_AVAILABLE =
  'Certification is not available in this sandbox: it was started without a certification runner ' +
  '(pass one as the `certification` option; the reference servers do).';

export const isCertificationApiPath = (path: string) =>
  path === CERTIFICATION_API_PATH || path.startsWith(`${CERTIFICATION_API_PATH}/`);

function runView(run: CertificationRun, withChecks: boolean) {
  return {
    id: run.id,
    mode: run.mode,
    organization_id: run.organizationId,
    api_base_url: run.apiBaseUrl ?? null,
    state: run.state,
    started_at: run.startedAt,
    finished_at: run.finishedAt ?? null,
    checks_done: run.checks.length,
    summary: run.summary ?? null,
    error: run.error ?? null,
    report: run.html === undefined ? null : `${CERTIFICATION_API_PATH}/runs/${run.id}/report`,
    ...(withChecks && {
      checks: run.checks.map((c) => ({
        id: c.id,
        title: c.title,
        status: c.status,
        duration_ms: c.durationMs,
        message: c.message ?? null,
      })),
    }),
  };
}

/** The organisation certified: the sandbox's first one with an API base URL, else its first. */
function target(sandbox: Sandbox) {
  const organizations = sandbox.organizations.list();
  const org = organizations.find((o) => o.apiBaseUrl !== undefined) ?? organizations[0];
  return org && { organizationId: org.id, apiBaseUrl: org.apiBaseUrl };
}

const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

async function answer(sandbox: Sandbox, runs: CertificationRuns | undefined, request: Request, path: string) {
  const method = request.method;
  const org = target(sandbox);
  if (path === CERTIFICATION_API_PATH && method === 'GET') {
    return json({
      available: runs !== undefined,
      ...(runs === undefined && { reason: NOT_AVAILABLE }),
      modes: runs?.runner.modes ?? [],
      notice: runs?.runner.notice ?? null,
      organization_id: org?.organizationId ?? null,
      api_base_url: org?.apiBaseUrl ?? null,
      runs: runs?.list().map((run) => runView(run, false)) ?? [],
    });
  }
  if (!runs) throw new KitError('not_found', NOT_AVAILABLE);
  if (path === `${CERTIFICATION_API_PATH}/runs` && method === 'POST') {
    const read = await readJson(request);
    if (!read.ok) throw new KitError('invalid_json', 'The body is not valid JSON');
    const mode = (read.value as { mode?: unknown } | null)?.mode ?? runs.runner.modes[0];
    if (typeof mode !== 'string' || !(INTEGRATION_MODES as readonly string[]).includes(mode)) {
      throw new KitError('validation_failed', `mode must be one of ${INTEGRATION_MODES.join(', ')}`);
    }
    if (!org) throw new KitError('validation_failed', 'The sandbox has no organisation to certify');
    const run = runs.start({ mode: mode as (typeof INTEGRATION_MODES)[number], ...org });
    return json(runView(run, true), 202);
  }
  const match = /^\/sandbox\/certification\/runs\/([^/]+)(\/report)?$/.exec(path);
  if (match && method === 'GET') {
    const run = runs.get(decodeURIComponent(match[1]!));
    if (!run)
      throw new KitError(
        'not_found',
        `No certification run ${match[1]} (the last ${runs.list().length} are kept)`,
      );
    if (!match[2]) return json(runView(run, true));
    if (run.html === undefined)
      throw new KitError('not_found', `Run ${run.id} has no report yet (${run.state})`);
    return new Response(run.html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': REPORT_CSP,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  }
  throw new KitError('not_found', `No certification route ${method} ${path}`);
}

export async function certificationApiResponse(
  sandbox: Sandbox,
  runs: CertificationRuns | undefined,
  request: Request,
  path: string,
): Promise<Response> {
  try {
    return await answer(sandbox, runs, request, path.replace(/\/+$/, ''));
  } catch (error) {
    return problemResponse(error);
  }
}
