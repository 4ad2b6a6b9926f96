import { describe, expect, it } from 'vitest';
import { cpuLine, summarize } from '../test-summary.mjs';

const ESC = String.fromCharCode(27);
const output = [
  `@bnpl-kit/core:test: ${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[32m312 passed${ESC}[39m (312)`,
  '@bnpl-kit/browser-e2e:test:       Tests  8 failed | 2 passed (10)',
  '@bnpl-kit/browser-e2e:test:  ELIFECYCLE  Test failed. See above for more details.',
  '@bnpl-kit/web:test:       Tests  40 passed | 1 skipped (41)',
].join('\n');
const task = (name: string, exitCode: number) => ({
  package: name,
  taskId: `${name}#test`,
  execution: { exitCode },
});

describe('the test command summary', () => {
  it('names only the packages whose own tests failed, and adds up the tests', () => {
    const run = {
      tasks: [
        task('@bnpl-kit/core', 0),
        task('@bnpl-kit/browser-e2e', 1),
        task('@bnpl-kit/web', 0),
        { package: '@bnpl-kit/core', taskId: '@bnpl-kit/core#transit', execution: { exitCode: 0 } },
      ],
    };
    expect(summarize(output, run)).toBe(
      [
        'test: FAILED @bnpl-kit/browser-e2e (8 failed, 2 passed)',
        'tests: 354 passed, 8 failed, 1 skipped in 3 packages; 1 failed',
      ].join('\n'),
    );
  });

  it("without turbo's run summary, names the packages whose vitest line counts failures", () => {
    expect(summarize(output, undefined)).toBe(
      [
        'test: FAILED @bnpl-kit/browser-e2e (8 failed, 2 passed)',
        'tests: 354 passed, 8 failed, 1 skipped in 3 packages; 1 failed',
      ].join('\n'),
    );
  });

  it('says so when every package passed, and when nothing ran', () => {
    expect(summarize(output, { tasks: [task('@bnpl-kit/core', 0)] })).toMatch(/every package passed$/);
    expect(summarize('', { tasks: [] })).toMatch(/nothing ran$/);
  });

  it('repeats under a failed package the tests that failed and the first line of each error', () => {
    // vitest 4's "Failed Tests" section, as turbo prefixes it
    const failing = [
      '@bnpl-kit/scripts:test: ⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
      '@bnpl-kit/scripts:test: ',
      '@bnpl-kit/scripts:test:  FAIL  test/a.test.ts > suite > fails',
      '@bnpl-kit/scripts:test: AssertionError: expected 1 to be 2 // Object.is equality',
      '@bnpl-kit/scripts:test: - Expected',
      '@bnpl-kit/web:test:  FAIL  test/b.test.ts > passes elsewhere',
      '@bnpl-kit/scripts:test: ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯',
      '@bnpl-kit/scripts:test: ',
      `@bnpl-kit/scripts:test:  ${ESC}[41mFAIL${ESC}[49m  test/a.test.ts > suite > times out`,
      '@bnpl-kit/scripts:test: ',
      '@bnpl-kit/scripts:test: Error: Test timed out in 50ms.',
      '@bnpl-kit/scripts:test:       Tests  2 failed | 20 passed (22)',
    ].join('\n');
    const run = { tasks: [task('@bnpl-kit/scripts', 1), task('@bnpl-kit/web', 0)] };
    expect(summarize(failing, run)).toBe(
      [
        'test: FAILED @bnpl-kit/scripts (2 failed, 20 passed)',
        '    test/a.test.ts > suite > fails',
        '      AssertionError: expected 1 to be 2 // Object.is equality',
        '    test/a.test.ts > suite > times out',
        '      Error: Test timed out in 50ms.',
        'tests: 20 passed, 2 failed in 2 packages; 1 failed',
      ].join('\n'),
    );
  });

  it('shows at most eight failed tests per package and counts the rest', () => {
    const many = Array.from(
      { length: 11 },
      (_, i) => `@bnpl-kit/core:test:  FAIL  test/c.test.ts > case ${i}`,
    );
    const lines = summarize(many.join('\n'), { tasks: [task('@bnpl-kit/core', 1)] }).split('\n');
    expect(lines.filter((line) => line.includes('> case '))).toHaveLength(8);
    expect(lines).toContain('    … and 3 more above');
  });
});

describe('cpuLine', () => {
  const execution = { startTime: 0, endTime: 100_000 };
  it('adds up the suites and the build, says how busy the cores were, and names the costliest suites first', () => {
    const line = cpuLine(
      {
        execution,
        buildCpuSeconds: 0.25,
        tasks: [
          { package: '@bnpl-kit/core', cpuSeconds: 20 },
          { package: '@bnpl-kit/contract-tests', cpuSeconds: 120.4 },
          { package: '@bnpl-kit/web', cpuSeconds: 30 },
        ],
      },
      2,
    );
    expect(line).toBe(
      "test: CPU seconds 171 (the build step 0.3), 85 % of 2 cores over the suites' 100 s; the costliest suites: contract-tests 120, web 30, core 20",
    );
  });

  it('says nothing when no suite was measured (no /proc)', () => {
    expect(cpuLine({ execution, tasks: [{ package: '@bnpl-kit/core' }] }, 2)).toBeUndefined();
  });
});
