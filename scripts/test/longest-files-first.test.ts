/** The sequencer that starts a package's known longest files first (scripts/longest-files-first.ts). */

import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { longestFirst } from '../longest-files-first.ts';

const ROOT = '/repo/contract-tests';

/** What BaseSequencer reads of a file: its project (name, order, isolation) and its path. */
function spec(path: string, project = 'adapters', size = 100): TestSpecification & { size: number } {
  return {
    moduleId: `${ROOT}/${path}`,
    project: { name: project, config: { root: ROOT, isolate: true, sequence: { groupOrder: 0 } } },
    size,
  } as unknown as TestSpecification & { size: number };
}

/** A fresh clone's vitest: no durations from an earlier run, only the files' sizes. */
function freshCloneContext(files: (TestSpecification & { size: number })[]): Vitest {
  const sizes = new Map(
    files.map((file) => [`${file.project.name}:${file.moduleId.slice(ROOT.length + 1)}`, file.size]),
  );
  return {
    config: { root: ROOT },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => (sizes.has(key) ? { size: sizes.get(key) } : undefined),
    },
  } as unknown as Vitest;
}

describe('longestFirst', () => {
  const files = [
    spec('test/adapter-behaviour.test.ts', 'adapters', 9_000),
    spec('test/suite/koa.test.ts', 'adapters', 186),
    spec('test/suite/hono.test.ts', 'adapters', 186),
    spec('test/runner.test.ts', 'shared-worker', 20_000),
    spec('test/conformance-market.test.ts', 'shared-worker', 3_000),
  ];

  it('runs the named files first, in the order named (a directory names every file under it), the rest as vitest orders them', async () => {
    const Sequencer = longestFirst(['test/conformance-market.test.ts', 'test/suite/']);
    const order = await new Sequencer(freshCloneContext(files)).sort(files);
    expect(order.map((file) => file.moduleId.slice(ROOT.length + 1))).toEqual([
      'test/conformance-market.test.ts',
      'test/suite/koa.test.ts',
      'test/suite/hono.test.ts',
      'test/adapter-behaviour.test.ts',
      'test/runner.test.ts',
    ]);
  });

  it("without it, a fresh clone's vitest starts the small suite files after larger ones and the last project's files last", async () => {
    const Sequencer = longestFirst([]);
    const order = await new Sequencer(freshCloneContext(files)).sort(files);
    expect(order.map((file) => file.moduleId.slice(ROOT.length + 1))).toEqual([
      'test/adapter-behaviour.test.ts',
      'test/suite/koa.test.ts',
      'test/suite/hono.test.ts',
      'test/runner.test.ts',
      'test/conformance-market.test.ts',
    ]);
  });
});
