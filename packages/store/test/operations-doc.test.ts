/**
 * The worker's numbers in docs/operations.md are the code's defaults: each one sits between
 * `<!-- worker:name -->` markers and is compared here with the constant it describes, so a change
 * of default fails until the document says the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_JOB_RETRY } from '../src/repositories/jobs/backoff.js';
import { DEFAULT_RECONCILIATION, DEFAULT_RETENTION, webhookReplayWindowMs } from '../src/worker.js';

const UNITS: [string, number][] = [
  ['days', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

/** 90_000 → "1 min 30 s"; whole days as "7 days". */
function duration(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}

const documented = new Map(
  [
    ...readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8').matchAll(
      /<!-- worker:([a-z-]+) -->(.*?)<!-- \/worker -->/g,
    ),
  ].map((m) => [m[1], m[2]]),
);

describe('docs/operations.md, the job worker', () => {
  it.each([
    ['reconcile-every', duration(DEFAULT_RECONCILIATION.everyMs)],
    ['reconcile-after', duration(DEFAULT_RECONCILIATION.afterMs)],
    ['reconcile-batch', String(DEFAULT_RECONCILIATION.batchSize)],
    ['prune-every', duration(DEFAULT_RETENTION.everyMs)],
    ['retention', duration(DEFAULT_RETENTION.afterMs)],
    ['job-base', duration(DEFAULT_JOB_RETRY.baseDelayMs)],
    ['job-cap', duration(DEFAULT_JOB_RETRY.maxDelayMs)],
    ['replay-window', duration(webhookReplayWindowMs())],
  ])('%s says %s', (name, expected) => {
    expect(documented.get(name)).toBe(expected);
  });
});
