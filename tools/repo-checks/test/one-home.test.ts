/**
 * Facts with one home (issue 31): no package parses `Authorization: Bearer` with its own regular
 * expression; they all call core's `parseBearerToken` / `bearerToken` (packages/core/src/util/bearer.ts).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeScriptFiles } from '../src/imports.js';
import { REPO_ROOT } from '../src/workspace.js';

const HOME = 'packages/core/src/util/bearer.ts';
/** A regular expression literal or a string test that reads the Bearer scheme. */
const PARSES_BEARER = /\/\^?\s*bearer[\s\\[(]|\.startsWith\(\s*['"`]bearer /i;

describe('one home for each fact', () => {
  it('parses Authorization: Bearer only in core’s util/bearer.ts', () => {
    const roots = ['packages', 'contract-tests', 'apps'].map((dir) => join(REPO_ROOT, dir));
    const copies = roots
      .flatMap(typeScriptFiles)
      .map((file) => relative(REPO_ROOT, file))
      .filter((file) => file !== HOME && file.includes('/src/'))
      .filter((file) => PARSES_BEARER.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    expect(copies).toEqual([]);
  });

  it('recognises a copy (the check is not vacuous)', () => {
    expect(PARSES_BEARER.test(readFileSync(join(REPO_ROOT, HOME), 'utf8'))).toBe(true);
    expect(PARSES_BEARER.test('/^Bearer (\\S+)$/.exec(header)')).toBe(true);
  });
});
