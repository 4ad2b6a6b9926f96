/**
 * Reading request bodies with a hard cap. The cap is checked against `Content-Length` first (no
 * bytes read at all) and then while streaming, so a chunked or lying client cannot make us buffer
 * more than `maxBytes`. Bytes are kept exactly as received: the webhook signature covers them.
 */
import { KitError } from '../errors.js';
import { payloadTooLarge } from '../util/payload-too-large.js';
import { parseJsonBytes } from '../util/strict-json.js';
import { readHeader as header, readBodyDirectly } from './body-hints.js';

function tooLarge(maxBytes: number): KitError {
  return payloadTooLarge(maxBytes, { closeConnection: true });
}

const EMPTY = new Uint8Array(0);

function isTooLarge(error: unknown): boolean {
  // Also when raised by a copy of KitError from another bundle (ESM and CJS builds).
  return (error as { code?: unknown } | null)?.code === 'payload_too_large';
}

export function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const direct = readBodyDirectly(request, maxBytes);
  if (!direct) return readBodyStream(request, maxBytes);
  // A promise chain, not an `async` function: the direct read is every webhook's path.
  return direct.then(
    (bytes) => bytes ?? readBodyStream(request, maxBytes),
    (error: unknown) => {
      if (isTooLarge(error)) throw tooLarge(maxBytes);
      throw new KitError('validation_failed', 'The request body ended before it was complete', {
        cause: error,
      });
    },
  );
}

/** The body through the Request's own stream, counting bytes as they arrive. */
async function readBodyStream(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = header(request, 'content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  if (request.body === null) return EMPTY;
  const stream = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await stream.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof KitError) throw error;
    if (isTooLarge(error)) throw tooLarge(maxBytes);
    // The client went away mid-body (or the bridge refused it); nobody is left to read a problem.
    throw new KitError('validation_failed', 'The request body ended before it was complete', {
      cause: error,
    });
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** `application/json`, optionally with parameters (`; charset=utf-8`), case-insensitive. */
function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  return type === 'application/json';
}

/**
 * Parses a JSON body: 415 unless `Content-Type: application/json`, 413 over the cap, 400 when it is
 * not JSON. With `optional`, a request without a body (or with an empty one) yields `undefined`.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  options: { optional?: boolean } = {},
): Promise<unknown> {
  const optional = options.optional === true;
  if (optional && header(request, 'content-length') === '0') return undefined;
  const json = isJsonContentType(header(request, 'content-type'));
  // Refused unread; an optional body is read first, since an empty one needs no content type.
  if (!json && !optional) throw unsupportedMediaType();
  const bytes = await readBodyBytes(request, maxBytes);
  if (bytes.byteLength === 0) {
    if (optional) return undefined;
    throw new KitError('invalid_json', 'The request body is empty; a JSON object is expected');
  }
  if (!json) throw unsupportedMediaType();
  return parseJsonBytes(bytes);
}

function unsupportedMediaType(): KitError {
  return new KitError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
}
