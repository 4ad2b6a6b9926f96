/**
 * Running checks outside any test framework: `runContractSuite` for a whole report (the certify
 * command, the reference servers' tests), `runCheck` for one check (one vitest `it` per check).
 */
import { type ClaimObject, DEFAULT_PATHS, type IntegrationMode, type MarketPaths } from '@bnpl-kit/core';
import { checksFor } from './checks/index.js';
import { ContractHttp, describeExchange } from './http.js';
import type { ContractSandbox } from './sandbox/driver.js';
import { hasCommitments, parseDemoUsers } from './support/users.js';
import type { CheckContext, CheckResult, ContractCheck, ContractReport, TestUser } from './types.js';
import { CheckSkipped, ContractViolation } from './violation.js';

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
  /** Per check; default 60 000. */
  checkTimeoutMs?: number;
  /** Only these check IDs or ID prefixes (`webhook.`); default all that apply to the mode. */
  only?: readonly string[];
  /** Another set of checks than the suite's own. */
  checks?: readonly ContractCheck[];
  fetch?: typeof fetch;
  /** Called after each check, e.g. to print progress. */
  onResult?: (result: CheckResult) => void;
}

let runCounter = 0;

function runId(): string {
  return `${Date.now().toString(36)}${(runCounter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function createCheckContext(options: ContractSuiteOptions, http: ContractHttp, id = runId()): CheckContext {
  const paths = { ...DEFAULT_PATHS, ...options.paths };
  const marketUrl = trimSlash(options.marketUrl);
  const url = (path: string) => `${marketUrl}${paths.prefix}${path}`;
  let counter = 0;
  const users = async (): Promise<TestUser[]> => {
    if (options.users) return options.users;
    const exchange = await http.send(url('/demo-user'));
    return exchange.status === 200 ? parseDemoUsers(exchange.json()) : [];
  };
  return {
    mode: options.mode,
    marketUrl,
    paths,
    webhookUrl: options.webhookUrl ?? url(paths.webhook),
    http,
    sandbox: options.sandbox,
    systemAuth:
      options.systemHeaders ??
      (options.marketToken ? { authorization: `Bearer ${options.marketToken}` } : {}),
    toleranceSeconds: options.toleranceSeconds ?? 300,
    maxBodyBytes: options.maxBodyBytes ?? 256 * 1024,
    bnplCallbackUrl: options.bnplCallbackUrl,
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
  };
}

function failureText(check: ContractCheck, error: unknown, http: ContractHttp): string {
  if (error instanceof ContractViolation) return error.describe(check.spec);
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const last = http.last();
  return [
    `The check could not complete: ${why}`,
    ...(last ? [`Last request: ${describeExchange(last)}`] : []),
  ].join('\n');
}

/** Runs one check with its own HTTP record and a deadline; never throws. */
export async function runCheck(check: ContractCheck, options: ContractSuiteOptions): Promise<CheckResult> {
  const http = new ContractHttp({
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.requestTimeoutMs && { timeoutMs: options.requestTimeoutMs }),
  });
  const ctx = createCheckContext(options, http);
  const timeoutMs = options.checkTimeoutMs ?? 60_000;
  const started = performance.now();
  const base = { id: check.id, title: check.title, spec: check.spec };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the check did not finish within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
    return { ...base, status: 'pass', durationMs: performance.now() - started };
  } catch (error) {
    const durationMs = performance.now() - started;
    if (error instanceof CheckSkipped) return { ...base, status: 'skip', durationMs, message: error.reason };
    return { ...base, status: 'fail', durationMs, message: failureText(check, error, http) };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every applicable check, one after another (they share the market and the sandbox). */
export async function runContractSuite(options: ContractSuiteOptions): Promise<ContractReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const checks = (options.checks ?? checksFor(options.mode)).filter(
    (check) =>
      check.modes.includes(options.mode) &&
      (!options.only?.length || options.only.some((o) => check.id === o || check.id.startsWith(o))),
  );
  const results: CheckResult[] = [];
  for (const check of checks) {
    const result = await runCheck(check, options);
    results.push(result);
    options.onResult?.(result);
  }
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  const summary = {
    total: results.length,
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
  };
  return {
    marketUrl: trimSlash(options.marketUrl),
    mode: options.mode,
    startedAt,
    durationMs: performance.now() - started,
    results,
    summary,
    ok: summary.failed === 0,
  };
}
