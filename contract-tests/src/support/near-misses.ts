/**
 * The texts next to a protocol word (an order status, an event type) that a lenient reader takes for
 * it and the protocol does not: one derivation for every word certify delivers, so each such check
 * covers the same classes of mistake. A market in any language meets these:
 *
 * - whitespace around it, as `strip()`, `trim()` or `strings.TrimSpace` remove (space, tab,
 *   newline, the no-break space that Python's and Java's `strip()` remove and Java's `trim()` keeps);
 * - full-width letters, which NFKC normalisation folds to ASCII;
 * - an invisible character (zero-width space; the BOM, which JavaScript's `trim()` removes);
 * - more before or after it, which a reader that looks for the word inside the text (`"PAID" in s`,
 *   `startsWith`, `contains`) takes for it: `UNPAID`, `PAID_V2`, `LEGACY_PAID`;
 * - a letter that only Unicode case mapping turns into the word's (dotless ı upper-cases to I, long
 *   ſ to S, the Kelvin sign lower-cases to k): `upper()`, `toUpperCase`, `equalsIgnoreCase` take them;
 * - for a word matched exactly (event types, WIRE §4), the word in lower case too. Order statuses
 *   fold ASCII letters (R-SVC-13), so their lower case is the status itself, not a miss.
 */

export type WordMatching = 'exact' | 'ascii-case-insensitive';

/** Letters that Unicode, but not ASCII, case mapping makes into the key. */
const UNICODE_CASE_LOOKALIKES: Record<string, string> = {
  I: '\u0131', // dotless ı: 'ı'.toUpperCase() === 'I'
  S: '\u017F', // long ſ: 'ſ'.toUpperCase() === 'S'
  K: '\u212A', // Kelvin sign: 'K'.toLowerCase() === 'k'
};

const fullWidth = (word: string) =>
  [...word].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

/** The word with its first letter that has a Unicode-only case lookalike swapped for it, if any. */
function unicodeCaseLookalike(word: string): string | undefined {
  const at = [...word].findIndex((c) => c in UNICODE_CASE_LOOKALIKES);
  if (at < 0) return undefined;
  const chars = [...word];
  chars[at] = UNICODE_CASE_LOOKALIKES[chars[at]!]!;
  return chars.join('');
}

// The Kelvin sign lower-cases to an ASCII k: that lower case is the word itself to an ASCII fold.
const hasNonAscii = (text: string) => [...text].some((c) => c.charCodeAt(0) > 0x7f);

export function nearMisses(word: string, matching: WordMatching): string[] {
  const lookalike = unicodeCaseLookalike(word);
  const misses = [
    ` ${word}`,
    `${word} `,
    `\t${word}`,
    `${word}\n`,
    `${word}\u00A0`,
    fullWidth(word),
    `${word}\u200B`,
    `\uFEFF${word}`,
    `UN${word}`,
    `${word}_V2`,
    `LEGACY_${word}`,
    ...(lookalike === undefined ? [] : [lookalike, lookalike.toLowerCase()].filter(hasNonAscii)),
    ...(matching === 'exact' ? [word.toLowerCase()] : []),
  ];
  return [...new Set(misses)].filter((miss) => miss !== word);
}
