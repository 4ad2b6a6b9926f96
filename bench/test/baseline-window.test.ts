/** The hand-written baseline receiver writes the protocol's time window out; it must be core's. */
import { readFileSync } from 'node:fs';
import { DEFAULT_TOLERANCE_SECONDS } from '@bnpl-kit/core/wire';
import { expect, it } from 'vitest';

it("the baseline webhook receiver refuses outside core's time window, no wider or narrower", () => {
  const source = readFileSync(new URL('../servers/baseline-webhook.ts', import.meta.url), 'utf8');
  const windows = [...source.matchAll(/Date\.now\(\)\) > ([\d_]+)/g)].map((match) =>
    Number(match[1]!.replaceAll('_', '')),
  );
  expect(windows).toEqual([DEFAULT_TOLERANCE_SECONDS * 1000]);
});
