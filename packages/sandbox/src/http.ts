/**
 * Response helpers. Service routes answer in the WIRE §6 envelope; the admin API answers plain JSON
 * and RFC 9457 problems, like every endpoint of the kit.
 */
import { failureEnvelope, type ServiceErrorCode, successEnvelope } from '@bnpl-kit/core/wire';

/** A failure of a service route, turned into `{ success: false, errors: [...] }` with `status`. */
export class ServiceFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceFailure';
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function envelopeResponse(
  data: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return json(successEnvelope(data), status, headers);
}

export function failureResponse(failure: ServiceFailure): Response {
  return json(failureEnvelope([{ code: failure.code, message: failure.message }]), failure.status);
}

/** The body as JSON; an empty body is `{}` (a POST without body is common for action routes). */
/** Strict: bytes that are not UTF-8 are not JSON (WIRE §2), not text with U+FFFD in it. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    const text = UTF8.decode(await request.arrayBuffer());
    if (text.trim() === '') return { ok: true, value: {} };
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
