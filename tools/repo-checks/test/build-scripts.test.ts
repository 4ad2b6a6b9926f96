/**
 * Every installed dependency with an install script is either allowed to run it
 * (`onlyBuiltDependencies`) or deliberately not (`ignoredBuiltDependencies`), so `pnpm install` on a
 * fresh clone never ends with pnpm's "Ignored build scripts … approve-builds" warning that the README
 * would have to explain.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, workspaceList } from '../src/workspace.js';

const rootJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  pnpm?: { onlyBuiltDependencies?: string[] };
};

/** Installed packages whose install pnpm would run: an install script, or a binding.gyp (node-gyp). */
function packagesWithBuilds(): string[] {
  const store = join(REPO_ROOT, 'node_modules/.pnpm');
  const found = new Set<string>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    const names = readdirSync(modules).flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name],
    );
    for (const name of names) {
      const dir = join(modules, name);
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        scripts?: Record<string, string>;
      };
      const scripts = json.scripts ?? {};
      const builds =
        ['preinstall', 'install', 'postinstall'].some((s) => s in scripts) ||
        existsSync(join(dir, 'binding.gyp'));
      if (builds && json.name) found.add(json.name);
    }
  }
  return [...found].sort();
}

describe('dependencies with install scripts', () => {
  const allowed = [
    ...workspaceList('onlyBuiltDependencies'),
    ...(rootJson.pnpm?.onlyBuiltDependencies ?? []),
  ];
  const ignored = workspaceList('ignoredBuiltDependencies');

  it('reads both lists', () => {
    expect(allowed).toContain('esbuild');
    expect(ignored.length).toBeGreaterThan(0);
  });

  it('are each allowed or ignored on purpose', () => {
    const undecided = packagesWithBuilds().filter(
      (name) => !allowed.includes(name) && !ignored.includes(name),
    );
    expect(
      undecided,
      'add each to onlyBuiltDependencies or ignoredBuiltDependencies in pnpm-workspace.yaml',
    ).toEqual([]);
  });
});
