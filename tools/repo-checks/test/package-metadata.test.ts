/**
 * What every published package ships besides its code: the MIT LICENSE (the same text as the
 * repository's), a README, and the Node versions it supports (`engines`, the root's range).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, workspacePackages } from '../src/workspace.js';

const rootJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const license = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
const published = workspacePackages().filter((pkg) => !pkg.private);

describe.each(published)('$name', (pkg) => {
  const json = JSON.parse(readFileSync(join(REPO_ROOT, pkg.dir, 'package.json'), 'utf8'));

  it('ships the MIT LICENSE of the repository and a README', () => {
    expect(json.license).toBe('MIT');
    expect(readFileSync(join(REPO_ROOT, pkg.dir, 'LICENSE'), 'utf8')).toBe(license);
    expect(json.files).toEqual(expect.arrayContaining(['LICENSE', 'README.md']));
    expect(existsSync(join(REPO_ROOT, pkg.dir, 'README.md'))).toBe(true);
  });

  it('declares the Node versions the repository supports', () => {
    expect(json.engines).toEqual({ node: rootJson.engines.node });
  });
});
