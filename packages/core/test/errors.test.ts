import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, KitError, problemResponse } from '../src/errors.js';

describe('KitError', () => {
  it('renders RFC 9457 problem+json with the code and field errors', async () => {
    const error = new KitError('validation_failed', 'Body is invalid', {
      errors: [{ path: 'order_lines[0].subtotal.value', message: 'must be 300000' }],
    });
    const response = error.toResponse();
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({
      type: 'https://github.com/bnpl-kit/bnpl-kit/blob/main/docs/errors.md#validation_failed',
      title: 'Request validation failed',
      status: 400,
      detail: 'Body is invalid',
      code: 'validation_failed',
      errors: [{ path: 'order_lines[0].subtotal.value', message: 'must be 300000' }],
    });
  });

  it('maps every code to the status WIRE §2 gives its family', () => {
    expect(ERROR_STATUS).toMatchObject({
      unauthenticated: 401,
      signature_invalid: 401,
      forbidden: 403,
      order_not_found: 404,
      invalid_transition: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      upstream_rejected: 502,
      upstream_unavailable: 503,
      upstream_timeout: 504,
    });
  });

  it('fromUnknown hides internals of unknown errors', async () => {
    const response = problemResponse(new Error('password=hunter2 at db.ts:12'));
    const body = await response.json();
    expect(response.status).toBe(500);
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(body.code).toBe('internal');
  });

  it('fromUnknown keeps KitErrors as they are', () => {
    const original = new KitError('forbidden', 'not yours');
    expect(KitError.fromUnknown(original)).toBe(original);
  });
});
