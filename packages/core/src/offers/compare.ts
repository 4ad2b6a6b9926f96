/**
 * Value comparison for conditions. Markets often store amounts as digit strings ("1200"), and VND
 * amounts reach 15 digits, so decimal strings compare as exact decimals (BigInt), never as text and
 * never through a lossy float when both sides are plain decimals.
 */

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

export function isNumeric(value: unknown): value is number | string {
  return (
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && DECIMAL.test(value))
  );
}

interface Decimal {
  units: bigint;
  scale: number;
}

/** A decimal when the text form is plain; `number` for exponent forms such as 1e21. */
function toDecimal(value: number | string): Decimal | number {
  const text = typeof value === 'number' ? String(value) : value;
  if (!DECIMAL.test(text)) return Number(value);
  const [whole = '0', fraction = ''] = text.split('.');
  return {
    units: BigInt(whole.replace('-', '') + fraction) * (whole.startsWith('-') ? -1n : 1n),
    scale: fraction.length,
  };
}

function sign(n: bigint | number): -1 | 0 | 1 {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

/** -1, 0 or 1; `undefined` when either side is not a number or a decimal string. */
export function compareNumeric(a: unknown, b: unknown): -1 | 0 | 1 | undefined {
  if (!isNumeric(a) || !isNumeric(b)) return undefined;
  const x = toDecimal(a);
  const y = toDecimal(b);
  if (typeof x === 'number' || typeof y === 'number') {
    return sign(Number(a) - Number(b));
  }
  const scale = Math.max(x.scale, y.scale);
  return sign(x.units * 10n ** BigInt(scale - x.scale) - y.units * 10n ** BigInt(scale - y.scale));
}

/**
 * Equality as a condition means it: numbers and decimal strings by value, a boolean against its
 * text form ("true"), anything else strictly.
 */
export function claimEquals(claim: unknown, expected: string | number | boolean): boolean {
  const numeric = compareNumeric(claim, expected);
  if (numeric !== undefined) return numeric === 0;
  if (typeof claim === typeof expected) return claim === expected;
  if (typeof claim === 'string' && typeof expected === 'boolean') return claim === String(expected);
  if (typeof claim === 'boolean' && typeof expected === 'string') return String(claim) === expected;
  return false;
}

export function claimContains(claim: unknown, expected: string | number | boolean): boolean {
  if (typeof claim === 'string') return claim.includes(String(expected));
  if (Array.isArray(claim)) return claim.some((item) => claimEquals(item, expected));
  return false;
}
