/**
 * Every repository path a document cites exists: a README or docs/*.md that names a file or folder
 * (`packages/core/test/x.test.ts`, a link to `docs/operations.md`) must name one the repository has,
 * so a test moved or renamed without its documents following fails here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citedPaths } from '../src/doc-paths.js';
import { REPO_ROOT, workspacePackages } from '../src/workspace.js';

const tracked = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: REPO_ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file.endsWith('README.md') || /^docs\/[^/]+\.md$/.test(file));

/**
 * A path resolves from the repository root, from the citing document's own folder, or from a
 * workspace package or its `src/` (docs/architecture.md names core's modules as `market/router.ts`,
 * a server's entry as `src/main.ts`): a renamed file fails wherever it was cited from.
 */
const BASES = [
  REPO_ROOT,
  ...workspacePackages().flatMap((pkg) => [pkg.dir, `${pkg.dir}/src`].map((dir) => join(REPO_ROOT, dir))),
];

function exists(document: string, path: string): boolean {
  const bare = path.replace(/[#?].*$/, '').replace(/\/$/, '');
  return [join(REPO_ROOT, dirname(document)), ...BASES].some((base) => existsSync(join(base, bare)));
}

describe('repository paths cited in the documents', () => {
  it('finds the documents and their citations', () => {
    expect(tracked).toContain('README.md');
    expect(tracked).toContain('docs/protocol.md');
    expect(citedPaths(readFileSync(join(REPO_ROOT, 'docs/protocol.md'), 'utf8')).length).toBeGreaterThan(0);
  });

  it.each(tracked)('%s cites only paths that exist', (document) => {
    const text = readFileSync(join(REPO_ROOT, document), 'utf8');
    const missing = citedPaths(text).filter((path) => !exists(document, path));
    expect(missing, `${document} cites paths the repository does not have`).toEqual([]);
  });
});
