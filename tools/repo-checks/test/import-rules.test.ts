/**
 * Which package may import which (docs/architecture.md, "What may import what"). The layers only
 * point one way: core knows no other package and no framework; adapters only reach core (and the
 * internals meant for them); the sandbox, the contract suite and the CLI build on core's `./wire`.
 */
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportSite, importsUnder } from '../src/imports.js';
import { workspacePackages } from '../src/workspace.js';

const ADAPTER_IMPORTS = ['@bnpl-kit/core', '@bnpl-kit/core/node', '@bnpl-kit/core/unstable-internals'];

/** What each published package's `src/` may import from the workspace, by exact specifier. */
const SOURCE_MAY_IMPORT: Record<string, readonly string[]> = {
  '@bnpl-kit/core': [],
  '@bnpl-kit/web': [],
  '@bnpl-kit/express': ADAPTER_IMPORTS,
  '@bnpl-kit/koa': ADAPTER_IMPORTS,
  '@bnpl-kit/hono': ADAPTER_IMPORTS,
  '@bnpl-kit/fastify': ADAPTER_IMPORTS,
  '@bnpl-kit/nestjs': ADAPTER_IMPORTS,
  // All entries: `.` (the store), `./worker` (the job worker, reconciliation, retention, health) and
  // `./testing` (a PgBouncer for tests).
  '@bnpl-kit/store': [
    '@bnpl-kit/core',
    // The sandbox's record contract (SandboxRecordStore), which the store implements; the worker's
    // `followServiceStatus` (the one forward-move rule) and idempotency keys.
    '@bnpl-kit/core/wire',
  ],
  '@bnpl-kit/sandbox': [
    '@bnpl-kit/core',
    '@bnpl-kit/core/node',
    '@bnpl-kit/core/wire',
    '@bnpl-kit/core/testing',
    // The service and admin API documents it serves and writes to docs/openapi.
    '@bnpl-kit/core/openapi',
  ],
  '@bnpl-kit/contract-tests': [
    '@bnpl-kit/core',
    '@bnpl-kit/core/wire',
    '@bnpl-kit/core/testing',
    // The market's documented answers, for src/openapi-validation.ts.
    '@bnpl-kit/core/openapi',
    '@bnpl-kit/sandbox',
    // src/adapters.ts, used by the suite's own tests only (no entry exports it).
    '@bnpl-kit/express',
    '@bnpl-kit/fastify',
    '@bnpl-kit/hono',
    '@bnpl-kit/koa',
    '@bnpl-kit/nestjs',
  ],
  '@bnpl-kit/cli': [
    '@bnpl-kit/core',
    '@bnpl-kit/core/wire',
    '@bnpl-kit/core/testing',
    '@bnpl-kit/sandbox',
    '@bnpl-kit/contract-tests',
    // `bnpl-kit sandbox --data-dir`: the persistent sandbox's records in an embedded PostgreSQL.
    '@bnpl-kit/store',
  ],
};

const ADAPTERS = new Set([
  '@bnpl-kit/express',
  '@bnpl-kit/koa',
  '@bnpl-kit/hono',
  '@bnpl-kit/fastify',
  '@bnpl-kit/nestjs',
]);
const packages = workspacePackages();
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));

function workspaceTarget(specifier: string): string | undefined {
  const match = /^(@bnpl-kit\/[^/]+)/.exec(specifier);
  return match?.[1];
}

function violations(sites: ImportSite[], check: (site: ImportSite) => string | undefined) {
  return sites.flatMap((site) => {
    const problem = check(site);
    return problem === undefined ? [] : [`${site.file}: ${site.specifier} (${problem})`];
  });
}

describe('import rules', () => {
  it('knows every published package', () => {
    const published = packages.filter((pkg) => !pkg.private).map((pkg) => pkg.name);
    expect(published.sort()).toEqual(Object.keys(SOURCE_MAY_IMPORT).sort());
  });

  for (const pkg of packages) {
    describe(pkg.name, () => {
      const source = importsUnder(join(pkg.dir, 'src'));
      const all = [...source, ...importsUnder(join(pkg.dir, 'test'))];

      it('imports only workspace packages it declares (src: dependencies; tests: devDependencies too)', () => {
        const runtime = { ...pkg.dependencies, ...pkg.peerDependencies };
        const any = { ...runtime, ...pkg.devDependencies };
        const found = violations(all, ({ file, specifier }) => {
          const target = workspaceTarget(specifier);
          if (target === undefined || target === pkg.name) return undefined;
          const declared = file.startsWith(join(pkg.dir, 'src')) ? runtime : any;
          return target in declared || (target in any && SOURCE_MAY_IMPORT[pkg.name]?.includes(specifier))
            ? undefined
            : 'not declared in package.json';
        });
        expect(found).toEqual([]);
      });

      const allowed = SOURCE_MAY_IMPORT[pkg.name];
      if (allowed !== undefined) {
        it('src imports only the layers below it', () => {
          const found = violations(source, ({ specifier }) => {
            const target = workspaceTarget(specifier);
            if (target === undefined || target === pkg.name) return undefined;
            return allowed.includes(specifier) ? undefined : `${pkg.name} may not import this`;
          });
          expect(found).toEqual([]);
        });
      }

      it('keeps core/unstable-internals to the adapters', () => {
        const found = violations(all, ({ specifier }) =>
          specifier === '@bnpl-kit/core/unstable-internals' && !ADAPTERS.has(pkg.name)
            ? 'adapters only'
            : undefined,
        );
        expect(found).toEqual([]);
      });

      it('never reaches into another package by a relative path', () => {
        const root = normalize(pkg.dir);
        const found = violations(all, ({ file, specifier }) => {
          if (!specifier.startsWith('.')) return undefined;
          const target = normalize(join(dirname(file), specifier));
          return target.startsWith(`${root}/`) ? undefined : 'import it through its package name';
        });
        expect(found).toEqual([]);
      });
    });
  }

  it('keeps Node-only modules in core to the ./node entry (the rest of core runs anywhere)', () => {
    const core = byName.get('@bnpl-kit/core');
    expect(core).toBeDefined();
    // Types from node: modules are fine anywhere (erased); what runs must not load them.
    const found = importsUnder('packages/core/src', { typeOnly: false }).filter(
      ({ file, specifier }) =>
        specifier.startsWith('node:') &&
        !file.startsWith('packages/core/src/node/') &&
        file !== 'packages/core/src/node.ts',
    );
    expect(found).toEqual([]);
  });
});
