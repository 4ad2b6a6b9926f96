/**
 * An outside project that copies a README's TypeScript gets code that compiles: every block of the
 * published packages' READMEs, type-checked in one program against the packages' own types (this
 * package's node_modules stand for the outside project's: the kit's packages and the frameworks the
 * READMEs install). See src/readme-types.ts for what a fragment may leave to the reader. Blocks
 * planted here, in the same program, show that the check finds what it must.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/outside-project.js';
import {
  type BlockProblem,
  importsRelatively,
  publishedReadmes,
  type ReadmeBlock,
  readmeBlocks,
  readmeCompilerOptions,
  typeCheckBlocks,
} from '../src/readme-types.js';

const PROJECT = join(REPO_ROOT, 'tools/readme-examples');
const blocks = readmeBlocks(REPO_ROOT, publishedReadmes(REPO_ROOT));
const checked = blocks.filter((block) => !importsRelatively(block));

const planted = (code: string): ReadmeBlock => ({
  readme: 'planted/README.md',
  line: 10,
  language: 'ts',
  code,
});
const wrongOption = planted(
  "import { loadConfig } from '@bnpl-kit/core';\n\nloadConfig(process.env, { integrationMod: 'basic' });\n",
);
const fragment = planted(
  "import { openStore } from '@bnpl-kit/store';\n\nawait openStore({ databaseUrl: url, logger });\n",
);
const misusedImport = planted(
  "import { openStore } from '@bnpl-kit/store';\n\nawait openStore({ databaseUrl: url, poolsize: 3 });\n",
);
const missingExport = planted("import { openStorage } from '@bnpl-kit/store';\n\nawait openStorage();\n");

let problems: BlockProblem[];
beforeAll(() => {
  const options = readmeCompilerOptions(join(PROJECT, 'tsconfig.json'));
  problems = typeCheckBlocks(
    [...checked, wrongOption, fragment, misusedImport, missingExport],
    PROJECT,
    options,
  );
}, 300_000);
const problemsOf = (block: ReadmeBlock) => problems.filter((p) => p.block === block).map((p) => p.message);

describe('README TypeScript blocks', () => {
  it('are found in every adapter README, the store’s and core’s', () => {
    const readmes = new Set(checked.map((block) => block.readme));
    for (const name of ['core', 'store', 'express', 'koa', 'hono', 'fastify', 'nestjs']) {
      expect(readmes).toContain(`packages/${name}/README.md`);
    }
  });

  it('leave out only the CLI’s command template (contributor code that imports by relative path)', () => {
    expect(blocks.filter(importsRelatively).map((block) => block.readme)).toEqual(['packages/cli/README.md']);
  });

  it('type-check against the packages', () => {
    expect(checked.flatMap(problemsOf)).toEqual([]);
  });
});

describe('the check itself (blocks planted in the same program)', () => {
  it('reports a wrong option at its README line', () => {
    expect(problemsOf(wrongOption)).toEqual([expect.stringMatching(/^planted\/README\.md:12:\d+ TS2561 /)]);
  });

  it('lets a fragment leave names to the reader', () => {
    expect(problemsOf(fragment)).toEqual([]);
  });

  it('still reports a misused import in a fragment, and a missing export', () => {
    expect(problemsOf(misusedImport)).toEqual([
      expect.stringMatching(/^planted\/README\.md:12:\d+ TS\d+ .*poolsize/),
    ]);
    expect(problemsOf(missingExport)).toEqual([
      expect.stringMatching(/^planted\/README\.md:10:\d+ TS\d+ .*openStorage/),
    ]);
  });
});
