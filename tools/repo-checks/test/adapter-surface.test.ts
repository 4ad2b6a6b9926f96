/**
 * The framework adapters are interchangeable: each publishes the same names (`createBnplRouter`,
 * `frameworkName`, `RAW_BODY_HELP`, …), so moving a market from one framework to another changes
 * an import, nothing else. Their values and behaviour are tested once for every adapter, against
 * real servers, in contract-tests/test/adapter-behaviour.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedNames } from '../src/export-names.js';
import { REPO_ROOT, workspacePackages } from '../src/workspace.js';

const rootNames = (pkg: { dir: string; sourceEntries: Record<string, string> }): string[] => {
  const root = pkg.sourceEntries['.'];
  return root === undefined ? [] : exportedNames(join(REPO_ROOT, pkg.dir, root)).map((n) => n.name);
};

// An adapter is a published package whose root entry exports `createBnplRouter`.
const adapters = workspacePackages()
  .filter((pkg) => !pkg.private && rootNames(pkg).includes('createBnplRouter'))
  .map((pkg) => ({ name: pkg.name, names: rootNames(pkg).sort() }));

const SHARED = ['RAW_BODY_HELP', 'bnplErrorHandler', 'createBnplRouter', 'frameworkName'];

/**
 * What a framework's users expect besides the shared names, and nothing else: Fastify registers
 * plugins with their options (`fastify.register(bnpl, { market, prefix })`), Nest imports a module.
 */
const IDIOMATIC_EXTRAS: Record<string, readonly string[]> = {
  '@bnpl-kit/fastify': ['BnplPluginOptions', 'bnpl'],
  '@bnpl-kit/nestjs': ['BNPL_MARKET', 'BnplModule', 'BnplModuleAsyncOptions', 'BnplModuleOptions'],
};

describe('adapter surface', () => {
  it('finds every adapter', () => {
    expect(adapters.map((a) => a.name).sort()).toEqual([
      '@bnpl-kit/express',
      '@bnpl-kit/fastify',
      '@bnpl-kit/hono',
      '@bnpl-kit/koa',
      '@bnpl-kit/nestjs',
    ]);
  });

  it.each(adapters)('$name exports the same names as every other adapter', ({ name, names }) => {
    const extras = IDIOMATIC_EXTRAS[name] ?? [];
    expect(names.filter((n) => !extras.includes(n))).toEqual(SHARED);
    expect(names).toEqual(expect.arrayContaining([...extras]));
  });
});
