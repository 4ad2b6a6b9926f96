/**
 * Assertions shared by the checks. Each one throws a `ContractViolation` naming what was expected and
 * showing the exchange; none of them knows how our own market is written.
 */
import { ERROR_DOCS_URL } from '@bnpl-kit/core/wire';
import { describeExchange, type HttpExchange } from './http.js';
import { findInternals } from './support/internals.js';
import { ContractViolation, type ViolationDetails } from './violation.js';

export function fail(details: ViolationDetails): never {
  throw new ContractViolation(details);
}

export function ensure(condition: unknown, details: ViolationDetails): asserts condition {
  if (!condition) fail(details);
}

export function expectStatus(
  exchange: HttpExchange,
  expected: number | readonly number[],
  what: string,
  spec?: string,
): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (allowed.includes(exchange.status)) return;
  fail({ expected: `${allowed.join(' or ')} ${what}`, exchange, ...(spec && { spec }) });
}

export function expect2xx(exchange: HttpExchange, what: string, spec?: string): void {
  if (exchange.status >= 200 && exchange.status < 300) return;
  fail({ expected: `a 2xx answer ${what}`, exchange, ...(spec && { spec }) });
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object body with `Content-Type: application/json`. */
export function expectJsonObject(exchange: HttpExchange, what: string, spec = 'WIRE §5'): JsonObject {
  const body = exchange.json();
  ensure(exchange.mediaType() === 'application/json' && isObject(body), {
    expected: `a JSON object with Content-Type: application/json ${what}`,
    exchange,
    spec,
  });
  return body;
}

export interface ProblemBody extends JsonObject {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

export interface ProblemExpectation {
  /** What the request was, for the message: "for an order without reference_id". */
  what: string;
  /**
   * The kit's `code` for this case. Advisory only (WIRE §2): a market with its own vocabulary passes;
   * a kit-vocabulary mismatch is reported as advice on the exchange.
   */
  code?: string | readonly string[];
  spec?: string;
}

/** The kit's problem `type`: the code's entry in the error catalogue (docs/errors.md). */
export const KIT_PROBLEM_TYPE_PREFIX = `${ERROR_DOCS_URL}#`;

/** Advice on an exchange: not a failure, shown in the report (the kit's problem vocabulary). */
export function advise(exchange: HttpExchange, note: string): void {
  if (!exchange.advisories.includes(note)) exchange.advisories.push(note);
}

/**
 * Every error body, whatever its shape: no stack traces, file paths, SQL or upstream bodies (WIRE §2).
 * Called by `expectProblem` and by the runner for every 4xx/5xx a check saw.
 */
export function expectNoInternals(exchange: HttpExchange, what = 'in an error body'): void {
  const found = findInternals(exchange.text);
  ensure(found.length === 0, {
    expected: `no internals ${what} (stack traces, file paths, SQL, upstream bodies)`,
    actual: `${found.join('; ')} in ${describeExchange(exchange)}`,
    spec: 'WIRE §2',
  });
}

/**
 * An RFC 9457 problem as WIRE §2 requires of every market: the status, `application/problem+json`,
 * a JSON object whose `type` (a URI) / `title` (string) / `status` (the HTTP status) / `detail`
 * (string) are well formed where present, `errors` a list of `{ path, message }` where present, and
 * no internals. The kit's vocabulary (`type` docs/errors.md#<code> with `code`) is advice, never required.
 */
export function expectProblem(
  exchange: HttpExchange,
  status: number | readonly number[],
  expectation: ProblemExpectation,
): ProblemBody {
  const spec = expectation.spec ?? 'WIRE §2';
  const statuses = typeof status === 'number' ? [status] : status;
  const codes = expectation.code === undefined ? undefined : [expectation.code].flat();
  const wanted = `${statuses.join(' or ')} problem+json ${expectation.what}`;
  ensure(statuses.includes(exchange.status), { expected: wanted, exchange, spec });
  const body = exchange.json();
  ensure(exchange.mediaType() === 'application/problem+json' && isObject(body), {
    expected: `${wanted} (Content-Type: application/problem+json, a JSON object)`,
    exchange,
    spec: 'WIRE §2',
  });
  expectNoInternals(exchange);
  const problems: string[] = [];
  if (body.type !== undefined && (typeof body.type !== 'string' || !URL.canParse(body.type)))
    problems.push('"type" is not a URI');
  if (body.title !== undefined && typeof body.title !== 'string') problems.push('"title" is not a string');
  if (body.detail !== undefined && typeof body.detail !== 'string') problems.push('"detail" is not a string');
  if (body.status !== undefined && body.status !== exchange.status)
    problems.push(`"status" is not ${exchange.status}`);
  if (body.errors !== undefined) {
    const ok =
      Array.isArray(body.errors) &&
      body.errors.every((e) => isObject(e) && typeof e.path === 'string' && typeof e.message === 'string');
    if (!ok) problems.push('"errors" is not a list of { path, message }');
  }
  ensure(problems.length === 0, {
    expected: `${wanted}, shaped as RFC 9457 and WIRE §2 say`,
    actual: `${problems.join('; ')} in ${exchange.text.slice(0, 300)}`,
    exchange,
    spec: 'WIRE §2',
  });
  const code = typeof body.code === 'string' ? body.code : undefined;
  if (code === undefined || body.type !== `${KIT_PROBLEM_TYPE_PREFIX}${code}`) {
    advise(
      exchange,
      `kit vocabulary not used: no "code" with "type": "${KIT_PROBLEM_TYPE_PREFIX}<code>" (recommended, not required)`,
    );
  } else if (codes !== undefined && !codes.includes(code)) {
    advise(
      exchange,
      `kit vocabulary: "code" ${code} where the kit uses ${codes.join(' or ')} ${expectation.what}`,
    );
  }
  return body as ProblemBody;
}

/** `errors[].path` of a problem, for validation checks. */
export function problemPaths(problem: ProblemBody): string[] {
  return (problem.errors ?? []).map((e) => e.path);
}
