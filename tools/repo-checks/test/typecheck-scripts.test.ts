/**
 * Every package type-checks the same way: against the built declarations of the workspace packages
 * it imports (`--customConditions types`, what a user's project sees), after turbo has built them
 * (`typecheck` depends on `^build` in turbo.json). The flag cannot live in the tsconfigs, whose
 * `source` condition editors and tests keep; a script written without it would silently type-check
 * every dependency's sources again (correct, and about as slow as before the change), so this ties
 * the copies.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, workspacePackages } from '../src/workspace.js';

const TYPECHECK = 'tsc -p tsconfig.json --noEmit --customConditions types';

const scripts = workspacePackages().map((pkg) => {
  const json = JSON.parse(readFileSync(join(REPO_ROOT, pkg.dir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return { dir: pkg.dir, typecheck: json.scripts?.typecheck };
});

describe('typecheck scripts', () => {
  it('finds the workspace packages that have one', () => {
    expect(scripts.filter((s) => s.typecheck !== undefined).length).toBeGreaterThan(20);
  });

  it.each(scripts.filter((s) => s.typecheck !== undefined))('$dir checks against built declarations', (s) => {
    expect(s.typecheck).toBe(TYPECHECK);
  });

  it('run after the builds of what they import', () => {
    const turbo = JSON.parse(readFileSync(join(REPO_ROOT, 'turbo.json'), 'utf8')) as {
      tasks: Record<string, { dependsOn?: string[] }>;
    };
    expect(turbo.tasks.typecheck?.dependsOn).toContain('^build');
  });
});
