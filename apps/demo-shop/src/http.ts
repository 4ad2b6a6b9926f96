/** Small response helpers and the shop's request checks. */
import { KitError, parseBearerToken } from '@bnpl-kit/core';
import { readJsonBody } from '@bnpl-kit/core/wire';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

const MAX_BODY = 16 * 1024;

/**
 * A small JSON object; the shop's forms never send more. Core's reader refuses the wrong content
 * type and stops reading at the cap, so an oversized body is never buffered whole.
 */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const value = await readJsonBody(request, MAX_BODY);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KitError('validation_failed', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

export function bearerToken(request: Request): string | undefined {
  return parseBearerToken(request.headers.get('authorization'));
}
