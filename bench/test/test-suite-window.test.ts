import { describe, expect, it } from 'vitest';
import { withinRun } from '../test-suite.js';

const run = { execution: { command: 'turbo run test', startTime: 1_000, endTime: 9_000, exitCode: 0 } };

describe("the test-suite bench's reports of the newest test command", () => {
  it('counts a package report written during the run', () => {
    expect(withinRun({ startedAt: 2_000, endedAt: 8_000 }, run)).toBe(true);
  });

  it('leaves out a report a narrow vitest run wrote after it (it overwrote the run’s own)', () => {
    expect(withinRun({ startedAt: 10_000, endedAt: 12_000 }, run)).toBe(false);
  });

  it('leaves out a report older than the run (turbo replayed the package from its cache)', () => {
    expect(withinRun({ startedAt: 100, endedAt: 900 }, run)).toBe(false);
  });
});
