/**
 * Assertions shared by the checks. Each one throws a `ContractViolation` naming what was expected and
 * showing the exchange; none of them knows how our own market is written.
 */
import type { HttpExchange } from './http.js';
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
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}

export interface ProblemExpectation {
  /** What the request was, for the message: "for an order without reference_id". */
  what: string;
  /** Accepted `code` values; any non-empty code when omitted. */
  code?: string | readonly string[];
  spec?: string;
}

/**
 * An RFC 9457 problem as WIRE §2 fixes it: `application/problem+json`,
 * `{ type: "urn:bnpl-kit:problem:<code>", title, status, detail, code, errors? }`.
 */
export function expectProblem(
  exchange: HttpExchange,
  status: number | readonly number[],
  expectation: ProblemExpectation,
): ProblemBody {
  const spec = expectation.spec ?? 'WIRE §2';
  const statuses = typeof status === 'number' ? [status] : status;
  const codes = expectation.code === undefined ? undefined : [expectation.code].flat();
  const wanted = `${statuses.join(' or ')} problem+json${codes ? ` with code ${codes.join(' or ')}` : ''} ${expectation.what}`;
  ensure(statuses.includes(exchange.status), { expected: wanted, exchange, spec });
  const body = exchange.json();
  ensure(exchange.mediaType() === 'application/problem+json' && isObject(body), {
    expected: `${wanted} (Content-Type: application/problem+json, a JSON object)`,
    exchange,
    spec: 'WIRE §2',
  });
  const problems: string[] = [];
  const code = body.code;
  if (typeof code !== 'string' || code === '') problems.push('"code" is not a non-empty string');
  else if (body.type !== `urn:bnpl-kit:problem:${code}`)
    problems.push(`"type" is not "urn:bnpl-kit:problem:${code}"`);
  if (typeof body.title !== 'string') problems.push('"title" is not a string');
  if (typeof body.detail !== 'string') problems.push('"detail" is not a string');
  if (body.status !== exchange.status) problems.push(`"status" is not ${exchange.status}`);
  if (body.errors !== undefined) {
    const ok =
      Array.isArray(body.errors) &&
      body.errors.every((e) => isObject(e) && typeof e.path === 'string' && typeof e.message === 'string');
    if (!ok) problems.push('"errors" is not a list of { path, message }');
  }
  ensure(problems.length === 0, {
    expected: `${wanted}, shaped as WIRE §2 says`,
    actual: `${problems.join('; ')} in ${exchange.text.slice(0, 300)}`,
    exchange,
    spec: 'WIRE §2',
  });
  ensure(codes === undefined || codes.includes(code as string), { expected: wanted, exchange, spec });
  return body as ProblemBody;
}

/** `errors[].path` of a problem, for validation checks. */
export function problemPaths(problem: ProblemBody): string[] {
  return (problem.errors ?? []).map((e) => e.path);
}
