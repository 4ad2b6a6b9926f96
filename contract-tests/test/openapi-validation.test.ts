/** The suite's OpenAPI response check: a drifting answer fails, naming the operation and the mismatch. */
import { describe, expect, it } from 'vitest';
import type { HttpExchange } from '../src/http.js';
import { openApiResponseCheck } from '../src/openapi-validation.js';
import { ContractViolation } from '../src/violation.js';

function exchange(
  method: string,
  url: string,
  status: number,
  body: unknown,
  type = 'application/json',
): HttpExchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    request: { method, url, headers: {}, bodyExcerpt: undefined, bodyBytes: 0 },
    status,
    headers: new Headers({ 'content-type': type }),
    text,
    durationMs: 1,
    advisories: [],
    json: () => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    },
    mediaType: () => type,
  };
}

const record = {
  id: 'svc_1',
  reference_id: 'r1',
  totalAmount: { value: '100', currency: 'VND' },
  status: 'PENDING',
};

function violationOf(run: () => void): ContractViolation {
  try {
    run();
  } catch (error) {
    if (error instanceof ContractViolation) return error;
    throw error;
  }
  throw new Error('expected a ContractViolation');
}

describe('openApiResponseCheck', () => {
  const check = openApiResponseCheck('data-sharing');

  it('accepts answers that match the document, under a mount prefix too', () => {
    check(exchange('POST', 'http://m.test/v1/orders', 201, record));
    check(
      exchange('POST', 'http://m.test/api/v1/orders/svc_1/cancel', 202, { id: 'svc_1', status: 'CANCELED' }),
    );
    check(
      exchange(
        'GET',
        'http://m.test/v1/orders/service/svc_1',
        404,
        { title: 'Not found', status: 404 },
        'application/problem+json',
      ),
    );
    check(exchange('POST', 'http://m.test/v1/webhook', 200, { received: true, duplicate: true }));
  });

  it('names the operation and the mismatch of a body that drifted', () => {
    const { totalAmount: _dropped, ...withoutTotal } = record;
    const violation = violationOf(() =>
      check(exchange('POST', 'http://m.test/v1/orders', 201, withoutTotal)),
    );
    expect(violation.expected).toContain('createOrder');
    expect(violation.actual).toContain("must have required property 'totalAmount'");
    expect(violation.spec).toBe('WIRE §5 (OpenAPI operation createOrder)');
  });

  it('holds updated_at to RFC 3339 with an offset, naming the value and the syntax, and one defect for every value', () => {
    const status = (updatedAt: string) =>
      exchange('GET', 'http://m.test/v1/orders/service/svc_1', 200, {
        id: 'svc_1',
        reference_id: 'r1',
        status: 'PENDING',
        total_amount: { value: '100', currency: 'VND' },
        updated_at: updatedAt,
      });
    for (const valid of ['2026-11-30T09:00:00Z', '2026-11-30T09:00:00.123456Z', '2026-11-30T16:00:00+07:00'])
      check(status(valid));
    // Python's naive isoformat(), str() of an aware datetime, a date alone, an HTTP date.
    const invalid = [
      '2026-11-30T09:00:00.123456',
      '2026-11-30 09:00:00+00:00',
      '2026-11-30',
      'Mon, 30 Nov 2026 09:00:00 GMT',
    ];
    const violations = invalid.map((value) => violationOf(() => check(status(value))));
    violations.forEach((violation, i) => {
      expect(violation.actual).toContain(
        `/updated_at is ${JSON.stringify(invalid[i])}, not a date-time (RFC 3339 date-time with its offset: YYYY-MM-DDTHH:MM:SS, an optional fraction, then Z or ±HH:MM)`,
      );
      expect(violation.actual).not.toContain('must match pattern');
    });
    expect(new Set(violations.map((v) => v.defect)).size).toBe(1);
  });

  it('refuses an undocumented success status and a success that is not JSON', () => {
    expect(
      violationOf(() => check(exchange('POST', 'http://m.test/v1/orders/o/cancel', 200, {}))).actual,
    ).toContain('status 200 is not documented for cancelOrder');
    expect(
      violationOf(() => check(exchange('POST', 'http://m.test/v1/webhook', 200, 'ok', 'text/plain'))).actual,
    ).toContain('content type text/plain');
  });

  it('does not judge paths the document does not describe, nor non-problem error bodies', () => {
    check(exchange('GET', 'http://m.test/v1/no-such-route', 200, 'hello', 'text/plain'));
    check(exchange('POST', 'http://m.test/v1/orders', 415, 'Unsupported', 'text/plain'));
  });

  it('in basic mode, does not know the data-sharing endpoints', () => {
    openApiResponseCheck('basic')(
      exchange('POST', 'http://m.test/v1/push-claims', 200, 'anything', 'text/plain'),
    );
  });
});
