/**
 * The near misses certify delivers for statuses and event types (src/support/near-misses.ts): one
 * derivation for both, each miss a text the protocol does not take for the word and a lenient
 * reader does.
 */
import { EVENT_TYPES, ORDER_STATUSES } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { nearMisses } from '../src/support/near-misses.js';

const asciiUpper = (text: string) => text.replace(/[a-z]/g, (c) => c.toUpperCase());

/** What each lenient reader makes of a text: if any gives back the word, the miss catches it. */
const lenientReaders: Record<string, (text: string) => string> = {
  'trim()': (text) => text.trim(),
  NFKC: (text) => text.normalize('NFKC'),
  'toUpperCase()': (text) => text.toUpperCase(),
  'toLowerCase() then upper': (text) => text.toLowerCase().toUpperCase(),
  'zero-width removed': (text) => text.replace(/\u200B/g, ''),
};

describe('near misses of a protocol word', () => {
  it('are never the status itself, even after folding ASCII letters (R-SVC-13)', () => {
    for (const status of ORDER_STATUSES)
      for (const miss of nearMisses(status, 'ascii-case-insensitive'))
        expect(ORDER_STATUSES as readonly string[]).not.toContain(asciiUpper(miss));
  });

  it('are never an event type, matched exactly (WIRE §4)', () => {
    for (const type of Object.values(EVENT_TYPES))
      for (const miss of nearMisses(type, 'exact')) expect(Object.values(EVENT_TYPES)).not.toContain(miss);
  });

  it('hold, for every word, a miss each lenient reader takes for it', () => {
    const words: [string, 'exact' | 'ascii-case-insensitive'][] = [
      ...ORDER_STATUSES.map((s) => [s, 'ascii-case-insensitive'] as [string, 'ascii-case-insensitive']),
      ...Object.values(EVENT_TYPES).map((t) => [t, 'exact'] as [string, 'exact']),
    ];
    for (const [word, matching] of words) {
      const misses = nearMisses(word, matching);
      for (const [reader, read] of Object.entries(lenientReaders)) {
        // Only I, S and K have a letter that Unicode alone case-maps to them (ı, ſ, K).
        if (reader.includes('Case') && !/[ISK]/.test(word)) continue;
        expect(
          misses.some((miss) => read(miss) === word),
          `${reader} on ${word}`,
        ).toBe(true);
      }
      // A reader looking for the word inside the text, before or after more of it.
      expect(misses.some((miss) => miss.startsWith(word) && miss.length > word.length + 1)).toBe(true);
      expect(misses.some((miss) => miss.endsWith(word) && miss.length > word.length + 1)).toBe(true);
    }
  });

  it('give an exactly matched word its lower case, and a case-folded one not', () => {
    expect(nearMisses('BNPL_ORDER_STATUS_UPDATED', 'exact')).toContain('bnpl_order_status_updated');
    expect(nearMisses('PAID', 'ascii-case-insensitive')).not.toContain('paid');
    // The dotless ı, which only Unicode upper-cases to I.
    expect(nearMisses('PAID', 'ascii-case-insensitive')).toContain('pa\u0131d');
  });
});
