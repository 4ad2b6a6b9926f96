/**
 * A vitest sequencer that starts a package's known longest files first.
 *
 * Why: vitest orders a package's files by project name, then by their last run's duration, which a
 * fresh clone (CI, the bench) does not have, so by file size there, larger first. A package whose long
 * files are small (contract-tests: one 186-byte file per adapter, ~200 s each) or sit in the project
 * named last started them last, and they were the test command's tail (issue 36: contract-tests'
 * conformance market began after the adapter suites and ended at 627 s, every other package at 593).
 * Started first, the long files overlap, and the short ones fill the gaps after.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Whether a `longestFirst` entry names this file: itself, or a directory (ending in `/`) it is under. */
const covers = (entry: string, path: string) =>
  entry.endsWith('/') ? path.startsWith(entry) : path === entry;

/**
 * `longest` are paths relative to the package root, longest first: a file (`test/a.test.ts`) or a
 * directory (`test/suite/`, every file under it). Files they name run first, in that order; the rest
 * as vitest would order them.
 */
export function longestFirst(longest: readonly string[]): typeof BaseSequencer {
  return class LongestFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (spec: TestSpecification) => {
        const path = relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/');
        const at = longest.findIndex((entry) => covers(entry, path));
        return at < 0 ? longest.length : at;
      };
      // Array.prototype.sort is stable: within a rank, vitest's own order stays.
      return sorted
        .map((spec) => ({ spec, rank: rank(spec) }))
        .sort((a, b) => a.rank - b.rank)
        .map(({ spec }) => spec);
    }
  };
}
