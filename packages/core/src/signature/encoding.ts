/**
 * The two per-request encodings of the verifier, tuned because they run on every webhook: the
 * signature header (strict base64url, exactly 64 bytes) and the signed message (UTF-8).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

/** 64 bytes in unpadded base64url: 21 groups of 4 characters, then 2 for the last byte. */
export const SIGNATURE_TEXT_LENGTH = 86;

function sextet(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? LOOKUP[code]! : -1;
}

/**
 * Decodes an 86-character base64url signature into 64 bytes, or `undefined`. As strict as
 * `base64UrlDecode` (no padding, no `+/`, zero trailing bits, so one signature has exactly one
 * spelling) but without its generic bookkeeping; the caller checks the length first.
 */
export function decodeSignature(text: string): Uint8Array | undefined {
  const out = new Uint8Array(64);
  let o = 0;
  for (let i = 0; i < 84; i += 4) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    const d = sextet(text, i + 3);
    // A negative sextet makes the OR negative: one test for all four characters.
    if ((a | b | c | d) < 0) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  const a = sextet(text, 84);
  const b = sextet(text, 85);
  if ((a | b) < 0 || (b & 0x0f) !== 0) return undefined;
  out[63] = (a << 2) | (b >> 4);
  return out;
}

// Messages are encoded into views of a shared slab instead of a fresh allocation each: a new
// ArrayBuffer costs several times the encoding itself. Regions are handed out once and never
// reused (a slab is simply dropped when full), so a message stays valid for as long as it is held.
const SLAB_BYTES = 64 * 1024;
const encoder = new TextEncoder();
let slab = new Uint8Array(SLAB_BYTES);
let offset = 0;

/** UTF-8 bytes of `text`, in a private region of the shared slab. */
export function encodeMessage(text: string): Uint8Array {
  // UTF-16 to UTF-8 at most triples the length; above a quarter slab a plain allocation is fine.
  const worst = text.length * 3;
  if (worst > SLAB_BYTES / 4) return encoder.encode(text);
  if (SLAB_BYTES - offset < worst) {
    slab = new Uint8Array(SLAB_BYTES);
    offset = 0;
  }
  const { written } = encoder.encodeInto(text, slab.subarray(offset));
  const bytes = slab.subarray(offset, offset + written);
  offset += written;
  return bytes;
}
