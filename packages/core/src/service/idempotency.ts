/**
 * Idempotency keys for the service's mutating calls, defined once. The client uses them by default
 * and the market handler and the reference servers' jobs pass the same ones, so a manual
 * `POST /orders/:id/disburse` and a retried disbursement job can never both pay.
 *
 * The IDs in them are user data (a Vietnamese `reference_id`, an emoji), but a header value is
 * Latin-1 without control characters, so every ID goes through `headerSafe`: lossless and
 * injective, so two different IDs can never share a key.
 */
export const idempotencyKeys = {
  createOrder: (referenceId: string) => `create-order:${headerSafe(referenceId)}`,
  revertOrder: (orderId: string) => `revert:${headerSafe(orderId)}`,
  disburseOrder: (orderId: string) => `disburse:${headerSafe(orderId)}`,
  pushClaims: (credifyId: string, tokensDigest: string) =>
    `push-claims:${headerSafe(credifyId)}:${tokensDigest}`,
} as const;

// Visible ASCII except `%` (the escape) stays as it is, so the usual `ord-123` keys read as before.
const KEPT = /^[\x21-\x24\x26-\x7E]*$/;
const utf8 = new TextEncoder();

/**
 * `value` unchanged when it is visible ASCII without `%`; otherwise percent-encoded UTF-8 (every
 * such result contains a `%`, so it cannot equal a kept value). A lone surrogate, which UTF-8
 * cannot carry, becomes `%uXXXX` (`u` is not a hex digit, so this cannot collide either).
 */
export function headerSafe(value: string): string {
  if (KEPT.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit !== 0x25 && unit >= 0x21 && unit <= 0x7e) {
      out += value[i];
      continue;
    }
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = value.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += percent(value.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += `%u${unit.toString(16).toUpperCase().padStart(4, '0')}`;
    } else {
      out += percent(value[i]!);
    }
  }
  return out;
}

function percent(char: string): string {
  let out = '';
  for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
