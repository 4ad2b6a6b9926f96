/** The suite's copy of the shared vectors, and how each case is carried over to a live market. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webhookVectorChecks } from '../src/checks/webhook-vectors.js';
import { liveAge, RECIPES, vectorAge, vectorSlug, WEBHOOK_VECTORS } from '../src/support/vectors.js';

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as unknown;

describe('webhook vectors', () => {
  it('ships the same vectors as core (a published library carries its own copy)', () => {
    expect(read('../src/fixtures/webhook-and-claims.json')).toEqual(
      read('../../packages/core/test/fixtures/webhook-and-claims.json'),
    );
  });

  it('has a recipe for every case, and a check with a distinct ID for each', () => {
    expect(WEBHOOK_VECTORS.map((v) => v.name).filter((name) => RECIPES[name] === undefined)).toEqual([]);
    const ids = webhookVectorChecks.map((c) => c.id);
    expect(new Set(ids).size).toBe(WEBHOOK_VECTORS.length);
    expect(ids).toContain('webhook.vector.timestamp-301-s-old');
    expect(vectorSlug('missing X-Event-Id header')).toBe('missing-x-event-id-header');
  });

  it('keeps inside-the-window cases inside and outside cases outside, 5 s clear of the edge', () => {
    for (const tolerance of [300, 600, 30]) {
      for (const vector of WEBHOOK_VECTORS) {
        const age = liveAge(vector, tolerance);
        if (vector.reason === 'timestamp') expect(Math.abs(age)).toBeGreaterThanOrEqual(tolerance + 5);
        else expect(Math.abs(age)).toBeLessThanOrEqual(tolerance - 5);
        expect(Math.sign(age) || 1).toBe(Math.sign(vectorAge(vector)) || 1);
      }
    }
    const future = WEBHOOK_VECTORS.find((v) => v.name === 'timestamp 10 min in the future')!;
    expect(liveAge(future, 300)).toBe(-600);
  });
});
