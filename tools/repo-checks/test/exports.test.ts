/**
 * Every published package's surface, entry by entry, as a snapshot: a change of public API is a
 * visible diff in `__snapshots__/exports.test.ts.snap` (update with `vitest run -u` and review).
 * Read from syntax: with `verbatimModuleSyntax` every type-only export is marked `type`, so the
 * split into values and types needs no type checker (and no import of every package).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedNames } from '../src/export-names.js';
import { REPO_ROOT, workspacePackages } from '../src/workspace.js';

const published = workspacePackages().filter((pkg) => !pkg.private);

describe('export surface', () => {
  it('covers every published package', () => {
    expect(published.map((pkg) => pkg.name)).toMatchSnapshot();
  });

  for (const pkg of published) {
    describe(pkg.name, () => {
      for (const [subpath, source] of Object.entries(pkg.sourceEntries)) {
        const file = join(REPO_ROOT, pkg.dir, source);

        it(`${subpath} exports exactly the snapshotted names`, () => {
          const names = exportedNames(file).map(({ name, kind }) =>
            kind === 'type' ? `type ${name}` : name,
          );
          expect(names).toMatchSnapshot();
        });
      }
    });
  }
});
