import { describe, expect, it } from 'vitest';
import { summarize } from '../test-summary.mjs';

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

  it('says so when every package passed, and when nothing ran', () => {
    expect(summarize(output, { tasks: [task('@bnpl-kit/core', 0)] })).toMatch(/every package passed$/);
    expect(summarize('', { tasks: [] })).toMatch(/nothing ran$/);
  });
});
