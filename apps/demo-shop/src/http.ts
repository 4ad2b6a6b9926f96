/** Small response helpers and the shop's request checks. */
import { KitError } from '@bnpl-kit/core';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

const MAX_BODY = 16 * 1024;

/** A small JSON body; the shop's forms never send more. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    throw new KitError('unsupported_media_type', 'Send JSON (Content-Type: application/json)');
  }
  const text = await request.text();
  if (text.length > MAX_BODY) throw new KitError('payload_too_large', 'The body is too large');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new KitError('invalid_json', 'The body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KitError('validation_failed', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

export function bearerToken(request: Request): string | undefined {
  return /^Bearer (\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}
