/**
 * Turns the caller's body into the raw bytes the service signed, without copying when it can.
 *
 * A parsed object is refused outright: JSON.stringify of a parsed body is not the bytes that were
 * signed (key order, spacing, number formatting, escapes), so "re-serialize and verify" fails at
 * random. That is the most common webhook integration bug (stripe-node #341, #1254), so the error
 * says how to get the raw bytes in each framework instead of just saying no.
 */
import { WebhookVerificationError } from './errors.js';

/** The raw request body: bytes, or the exact text received (encoded as UTF-8). */
export type WebhookBody = Uint8Array | ArrayBuffer | ArrayBufferView | string;

const encoder = new TextEncoder();

/** For callers of `verifyWebhook` directly; each adapter exports its own framework's `RAW_BODY_HELP`. */
export const VERIFIER_RAW_BODY_HELP =
  'Pass the raw request bytes, not a parsed object. ' +
  "Express: use express.raw({ type: 'application/json' }) on the webhook route (req.body is then a Buffer), " +
  'or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }) and pass req.rawBody. ' +
  'Koa: koa-bodyparser keeps ctx.request.rawBody (a string); pass that. ' +
  'Hono: pass c.req.raw to the kit, or the bytes of await c.req.arrayBuffer().';

function tooLarge(size: number | string, maxBytes: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'payload_too_large',
    `Webhook body is ${size} bytes, more than the ${maxBytes}-byte limit (raise maxBodyBytes if your events are legitimately larger)`,
    { extensions: { max_body_bytes: maxBytes } },
  );
}

/** Returns the raw bytes of `body`, refusing parsed objects and bodies over `maxBytes`. */
export function rawBodyBytes(body: unknown, maxBytes: number): Uint8Array {
  let bytes: Uint8Array;
  if (body instanceof Uint8Array) {
    bytes = body;
  } else if (typeof body === 'string') {
    // A UTF-8 encoding is never shorter than the UTF-16 length, so huge strings are refused
    // before spending time encoding them.
    if (body.length > maxBytes) throw tooLarge(`at least ${body.length}`, maxBytes);
    bytes = encoder.encode(body);
  } else if (body instanceof ArrayBuffer || Object.prototype.toString.call(body) === '[object ArrayBuffer]') {
    bytes = new Uint8Array(body as ArrayBuffer);
  } else if (ArrayBuffer.isView(body)) {
    bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  } else {
    const what =
      body === undefined || body === null
        ? `missing (${body})`
        : typeof body === 'object'
          ? 'an already parsed object'
          : `a ${typeof body}`;
    throw new WebhookVerificationError(
      'payload_not_raw',
      `The webhook body given to the verifier is ${what}, not the raw bytes that were signed. ${VERIFIER_RAW_BODY_HELP}`,
    );
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(bytes.byteLength, maxBytes);
  return bytes;
}
