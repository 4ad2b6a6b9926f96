/**
 * Running checks outside any test framework: `runContractSuite` for a whole report (the certify
 * command, the reference servers' tests), `runCheck` for one check (one vitest `it` per check).
 */
import { type ClaimObject, DEFAULT_PATHS, type IntegrationMode, type MarketPaths } from '@bnpl-kit/core';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TOLERANCE_SECONDS } from '@bnpl-kit/core/wire';
import { guardAgainstStall } from './check-stall.js';
import { checksFor, selectChecks } from './checks/index.js';
import { recordExchanges } from './exchange-record.js';
import { expectNoInternals } from './expect.js';
import { ContractHttp, describeExchange } from './http.js';
import { openApiResponseCheck } from './openapi-validation.js';
import type { ContractSandbox } from './sandbox/driver.js';
import { checkSeed, DEFAULT_SEED } from './support/generated.js';
import { orderScopedFaults } from './support/order-scoped-faults.js';
import { routeUrl } from './support/routes.js';
import { hasCommitments, parseDemoUsers } from './support/users.js';
import type {
  CheckContext,
  CheckResult,
  ContractCheck,
  ContractReport,
  MarketCapability,
  TestUser,
} from './types.js';
import { CheckNotExercised, CheckSkipped, ContractViolation, PrerequisiteFailed } from './violation.js';

export interface ContractSuiteOptions {
  /** The market's base URL, without the `/v1` prefix. */
  marketUrl: string;
  mode: IntegrationMode;
  sandbox: ContractSandbox;
  /** `MARKET_API_TOKEN`: sent as `Authorization: Bearer …` to the market-system endpoints. */
  marketToken?: string;
  /** Other credentials for the market-system endpoints, instead of `marketToken`. */
  systemHeaders?: Record<string, string>;
  /** The webhook URL registered at the service; default `marketUrl + prefix + webhook path`. */
  webhookUrl?: string;
  paths?: Partial<MarketPaths>;
  /** End users to act as; default: read from `GET /v1/demo-user` (see support/users.ts). */
  users?: TestUser[];
  /** The market's stored claims with commitments, when an in-process test can read them. */
  storedClaims?: (user: TestUser) => Promise<ClaimObject | undefined>;
  /** `BNPL_CALLBACK_URL`, to check where the BNPL redirect leads. */
  bnplCallbackUrl?: string;
  /** Webhook time window the market enforces; default 300 (WIRE §4). */
  toleranceSeconds?: number;
  /** Webhook body limit the market enforces; default 262 144 (WIRE §4). */
  maxBodyBytes?: number;
  /** Per HTTP request to the market; default 10 000. */
  requestTimeoutMs?: number;
  /**
   * A check is cut (and fails) after this long without progress: no request to the market in
   * flight, sent or answered. A check that keeps talking to the market is never cut by it, however
   * long it runs; `deadlineAt` bounds the whole run. Default 60 000.
   */
  checkTimeoutMs?: number;
  /** Only these check IDs or ID prefixes (`webhook.`); default all that apply to the mode. */
  only?: readonly string[];
  /** Another set of checks than the suite's own. */
  checks?: readonly ContractCheck[];
  fetch?: typeof fetch;
  /** Called before each check, e.g. to print progress while a slow check runs. */
  onStart?: (check: ContractCheck, index: number, total: number) => void;
  /** Called after each check, e.g. to print progress. */
  onResult?: (result: CheckResult) => void;
  /** The whole run ends by this time (epoch ms): checks not started by then are "not run (deadline)". */
  deadlineAt?: number;
  /** A skipped check does not fail the run (it still makes the report INCOMPLETE). Default false. */
  allowSkips?: boolean;
  /** Seed of the generated cases; default BNPL_CERTIFY_SEED, else a fixed one (printed in the report). */
  seed?: number;
  /** Restarts the market and resolves once it answers again (certify's `--restart-command`). */
  restartMarket?: () => Promise<void>;
  /** Capabilities the market declares it lacks: their "not exercised" verdicts do not fail the run. */
  lacks?: readonly MarketCapability[];
  /** IDs of checks that failed earlier in this run (`runContractSuite` keeps it), for "not run (needs …)". */
  failedChecks?: ReadonlySet<string>;
  /**
   * The defects (`ContractViolation.defect`) earlier checks of this run failed on, each with the
   * first check that met it (`runContractSuite` keeps it): a later check meeting the same defect is
   * "not run (needs <that check>)", so one defect is one failure.
   */
  failedDefects?: ReadonlyMap<string, string>;
}

let runCounter = 0;

function runId(): string {
  return `${Date.now().toString(36)}${(runCounter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The run's seed: the option, else BNPL_CERTIFY_SEED, else the fixed default. */
export function runSeed(options: Pick<ContractSuiteOptions, 'seed'>): number {
  if (options.seed !== undefined) return options.seed;
  const fromEnv = Number(globalThis.process?.env?.BNPL_CERTIFY_SEED);
  return Number.isSafeInteger(fromEnv) && globalThis.process?.env?.BNPL_CERTIFY_SEED ? fromEnv : DEFAULT_SEED;
}

function createCheckContext(
  options: ContractSuiteOptions,
  http: ContractHttp,
  check: Pick<ContractCheck, 'id'>,
  id = runId(),
): CheckContext {
  const paths = { ...DEFAULT_PATHS, ...options.paths };
  const marketUrl = trimSlash(options.marketUrl);
  const url = (path: string) => `${marketUrl}${paths.prefix}${path}`;
  let counter = 0;
  const users = async (): Promise<TestUser[]> => {
    if (options.users) return options.users;
    const exchange = await http.send(routeUrl({ marketUrl, paths }, 'getDemoUser'));
    return exchange.status === 200 ? parseDemoUsers(exchange.json()) : [];
  };
  return {
    mode: options.mode,
    marketUrl,
    paths,
    webhookUrl: options.webhookUrl ?? routeUrl({ marketUrl, paths }, 'receiveWebhook'),
    http,
    sandbox: orderScopedFaults(options.sandbox),
    systemAuth:
      options.systemHeaders ??
      (options.marketToken ? { authorization: `Bearer ${options.marketToken}` } : {}),
    toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bnplCallbackUrl: options.bnplCallbackUrl,
    seed: checkSeed(runSeed(options), check.id),
    restartMarket: options.restartMarket,
    url,
    unique: (prefix) => `${prefix}-${id}-${(counter++).toString(36)}`,
    users,
    async storedClaims(user) {
      if (options.storedClaims) return options.storedClaims(user);
      const fresh = (await users()).find((u) => u.id === user.id);
      return hasCommitments(fresh?.claims) ? fresh.claims : undefined;
    },
    skip(reason): never {
      throw new CheckSkipped(reason);
    },
    notExercised(capability, why): never {
      throw new CheckNotExercised(capability, why);
    },
    advise(note) {
      // Kept with the check's HTTP record, where the runner collects advice from.
      http.notes.push(note);
    },
  };
}

function failureText(check: ContractCheck, error: unknown, http: ContractHttp): string {
  if (error instanceof PrerequisiteFailed) return error.violation.describe(check.spec, check.rules);
  if (error instanceof ContractViolation) return error.describe(check.spec, check.rules);
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const last = http.last();
  return [
    `The check could not complete: ${why}`,
    ...(last ? [`Last request: ${describeExchange(last)}`] : []),
  ].join('\n');
}

/** Every error answer the check saw, whatever it asserted about it, must be free of internals. */
function leakedInternals(http: ContractHttp): string | undefined {
  for (const exchange of http.exchanges) {
    if (exchange.status < 400) continue;
    try {
      expectNoInternals(exchange, `in a ${exchange.status} answer`);
    } catch (error) {
      if (error instanceof ContractViolation) return error.describe('WIRE §2', ['R-ERR-12', 'R-ERR-13']);
      throw error;
    }
  }
  return undefined;
}

/** The service's reasons for refusing calls the market made while the check ran (certify owns the sandbox). */
async function serviceRefusals(options: ContractSuiteOptions, sinceCallId: number): Promise<string> {
  // Best effort: a sandbox that cannot list its calls leaves the message as it is.
  const refused = await Promise.resolve()
    .then(() => options.sandbox.refusedCalls(sinceCallId))
    .catch(() => []);
  if (refused.length === 0) return '';
  const lines = refused
    .slice(-5)
    .map((c) => `    ${c.method} ${c.path} → ${c.status} ${c.responseBody ?? ''}`.trimEnd());
  return `\nThe service refused calls the market made meanwhile:\n${lines.join('\n')}`;
}

/** The earlier check whose failure this error repeats, when it is one (a failed prerequisite, or the same defect). */
function neededCheck(
  check: ContractCheck,
  error: unknown,
  options: ContractSuiteOptions,
): string | undefined {
  if (
    error instanceof PrerequisiteFailed &&
    error.prerequisite !== check.id &&
    options.failedChecks?.has(error.prerequisite)
  )
    return error.prerequisite;
  const violation = error instanceof PrerequisiteFailed ? error.violation : error;
  if (violation instanceof ContractViolation && violation.defect !== undefined) {
    const first = options.failedDefects?.get(violation.defect);
    if (first !== undefined && first !== check.id) return first;
  }
  return undefined;
}

/** The defect a failed check met, for `failedDefects`. */
function defectOf(error: unknown): string | undefined {
  const violation = error instanceof PrerequisiteFailed ? error.violation : error;
  return violation instanceof ContractViolation ? violation.defect : undefined;
}

/** Runs one check with its own HTTP record and a deadline; never throws. */
export async function runCheck(check: ContractCheck, options: ContractSuiteOptions): Promise<CheckResult> {
  const http = new ContractHttp({
    checkResponse: openApiResponseCheck(options.mode),
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.requestTimeoutMs && { timeoutMs: options.requestTimeoutMs }),
  });
  const ctx = createCheckContext(options, http, check);
  const left = options.deadlineAt === undefined ? Number.POSITIVE_INFINITY : options.deadlineAt - Date.now();
  const started = performance.now();
  const base = { id: check.id, title: check.title, spec: check.spec, rules: check.rules };
  // What a report shows of a check that did not pass: its exchanges, and expected against got.
  const evidence = (error?: unknown) => {
    const violation =
      error instanceof PrerequisiteFailed
        ? error.violation
        : error instanceof ContractViolation
          ? error
          : undefined;
    return {
      ...(violation && {
        violation: {
          expected: violation.expected,
          actual: violation.actual,
          spec: violation.spec ?? check.spec,
        },
      }),
      exchanges: recordExchanges(http.exchanges),
    };
  };
  const sinceCallId = await Promise.resolve()
    .then(() => options.sandbox.lastCallId())
    .catch(() => 0);
  const advisories = () => {
    const notes = [...new Set([...http.notes, ...http.exchanges.flatMap((e) => e.advisories)])];
    return notes.length > 0 ? { advisories: notes } : {};
  };
  const stall = guardAgainstStall(http, Math.max(1, options.checkTimeoutMs ?? 60_000), left);
  try {
    await Promise.race([check.run(ctx), stall.cut]);
    const leak = leakedInternals(http);
    const durationMs = performance.now() - started;
    if (leak) return { ...base, status: 'fail', durationMs, message: leak, ...advisories(), ...evidence() };
    return { ...base, status: 'pass', durationMs, ...advisories() };
  } catch (error) {
    const durationMs = performance.now() - started;
    if (error instanceof CheckSkipped) return { ...base, status: 'skip', durationMs, message: error.reason };
    if (error instanceof CheckNotExercised) {
      const declared = options.lacks?.includes(error.capability) ?? false;
      return {
        ...base,
        status: 'not-exercised',
        durationMs,
        message: `not exercised: ${error.reason}${declared ? ` (the market declares it lacks ${error.capability})` : ` (declare it with --lacks ${error.capability} if the market lacks it on purpose)`}`,
        lacks: { capability: error.capability, declared },
        ...advisories(),
        ...evidence(),
      };
    }
    const needs = neededCheck(check, error, options);
    if (needs !== undefined) {
      return { ...base, status: 'not-run', durationMs, needs, message: `not run (needs ${needs})` };
    }
    const refusals = await serviceRefusals(options, sinceCallId);
    const defect = defectOf(error);
    return {
      ...base,
      status: 'fail',
      durationMs,
      message: `${failureText(check, error, http)}${refusals}`,
      ...(defect !== undefined && { defect }),
      ...evidence(error),
    };
  } finally {
    stall.stop();
  }
}

/** Runs every applicable check, one after another (they share the market and the sandbox). */
export async function runContractSuite(options: ContractSuiteOptions): Promise<ContractReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const checks = selectChecks(options.checks ?? checksFor(options.mode), options.mode, options.only);
  const results: CheckResult[] = [];
  const failedChecks = new Set<string>();
  const failedDefects = new Map<string, string>();
  for (const [index, check] of checks.entries()) {
    let result: CheckResult;
    if (options.deadlineAt !== undefined && Date.now() >= options.deadlineAt) {
      result = {
        id: check.id,
        title: check.title,
        spec: check.spec,
        rules: check.rules,
        status: 'not-run',
        durationMs: 0,
        message: 'not run (the --deadline of the run passed)',
      };
    } else {
      options.onStart?.(check, index, checks.length);
      result = await runCheck(check, { ...options, failedChecks, failedDefects });
    }
    if (result.status === 'fail') {
      failedChecks.add(check.id);
      if (result.defect !== undefined && !failedDefects.has(result.defect))
        failedDefects.set(result.defect, check.id);
    }
    results.push(result);
    options.onResult?.(result);
  }
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  const summary = {
    total: results.length,
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
    notRun: count('not-run'),
    notExercised: count('not-exercised'),
  };
  const allowSkips = options.allowSkips ?? false;
  const complete = summary.skipped === 0 && summary.notRun === 0;
  const undeclared = results.some((r) => r.status === 'not-exercised' && r.lacks?.declared !== true);
  return {
    marketUrl: trimSlash(options.marketUrl),
    mode: options.mode,
    startedAt,
    durationMs: performance.now() - started,
    results,
    summary,
    complete,
    allowSkips,
    seed: runSeed(options),
    lacks: [...(options.lacks ?? [])],
    // A run that passed nothing (every check filtered out) proves nothing.
    ok:
      summary.total > 0 &&
      summary.failed === 0 &&
      summary.notRun === 0 &&
      !undeclared &&
      (allowSkips || summary.skipped === 0),
  };
}
