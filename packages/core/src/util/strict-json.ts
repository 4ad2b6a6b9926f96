/**
 * The one decoder of JSON request bodies, for every route the webhook included (WIRE §2): bytes
 * that are not UTF-8 (a stray 0xFF, an overlong sequence, a UTF-8-encoded surrogate) are
 * `invalid_json`, never replaced with U+FFFD. A lenient decoder would let a body through whose
 * text differs from the bytes sent (a reference ID that no longer matches, a status applied from
 * a body the sender never wrote); JSON is UTF-8 (RFC 8259 §8.1). A leading BOM is still dropped.
 */
import { KitError } from '../errors.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's text; `invalid_json` (400) when the bytes are not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array, what = 'The request body'): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new KitError('invalid_json', `${what} is not valid UTF-8; JSON must be sent as UTF-8`);
  }
}

/** The JSON value of a body: `invalid_json` (400) when it is not UTF-8 or not JSON. */
export function parseJsonBytes(bytes: Uint8Array | string, what = 'The request body'): unknown {
  const text = typeof bytes === 'string' ? bytes : decodeUtf8Strict(bytes, what);
  try {
    return JSON.parse(text);
  } catch {
    throw new KitError('invalid_json', `${what} is not valid JSON`);
  }
}
