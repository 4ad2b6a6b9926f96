import { describe, expect, it } from 'vitest';
import { credifyIds } from '../src/browser/credify-ids.js';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

describe("the shop's remembered credify_ids", () => {
  it('are per service: after switching to another sandbox, Bình has no credify_id until that service gives one', () => {
    const tab = memoryStorage();
    const embedded = credifyIds(tab, 'http://127.0.0.1:3000/sandbox-service/');
    embedded.set('binh', 'crf-embedded-1');
    expect(embedded.get('binh')).toBe('crf-embedded-1');
    const standalone = credifyIds(tab, 'http://127.0.0.1:4010/');
    expect(standalone.get('binh')).toBeUndefined();
    standalone.set('binh', 'crf-standalone-7');
    expect(standalone.get('binh')).toBe('crf-standalone-7');
    expect(embedded.get('binh')).toBe('crf-embedded-1');
  });
});
