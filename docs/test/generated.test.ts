/**
 * The generated parts of the documents are what the code renders today (`pnpm docs:generate`
 * rewrites them), and every problem `type` the kit sends resolves to an entry of the catalogue.
 */
import { readFileSync } from 'node:fs';
import { KitError } from '@bnpl-kit/core';
import { ERROR_CODES, ERROR_DOCS_URL, MARKET_OPERATIONS, MARKET_ROUTES } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { BLOCKS, FILES, root, withBlock } from '../generated.ts';

const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('generated documents', () => {
  it.each(Object.keys(FILES))('%s is current (run pnpm docs:generate)', (file) => {
    expect(read(file) === FILES[file]!(), `${file} is stale: run npx -y pnpm@10 docs:generate`).toBe(true);
  });

  it.each(BLOCKS.map((block) => [`${block.file} ${block.name}`, block] as const))(
    '%s is current (run pnpm docs:generate)',
    (_, block) => {
      const text = read(block.file);
      expect(
        text === withBlock(text, block),
        `${block.file} (${block.name}) is stale: run npx -y pnpm@10 docs:generate`,
      ).toBe(true);
    },
  );

  it('the README endpoint table has a row for every route of the table and no other', () => {
    const readme = read('README.md');
    const table = readme.slice(
      readme.indexOf('<!-- generated:endpoints -->'),
      readme.indexOf('<!-- /generated:endpoints -->'),
    );
    const rows = [...table.matchAll(/^\| `(GET|POST) ([^`]+)`/gm)].map((m) => m[1]);
    expect(rows).toHaveLength(MARKET_OPERATIONS.length);
    expect(rows.sort()).toEqual(MARKET_OPERATIONS.map((name) => MARKET_ROUTES[name].method).sort());
  });
});

describe('problem types resolve', () => {
  const catalogue = read('docs/errors.md');

  it.each(ERROR_CODES)('%s: its type is its entry in docs/errors.md', (code) => {
    const type = new KitError(code, 'x').toProblem().type;
    expect(type).toBe(`${ERROR_DOCS_URL}#${code}`);
    expect(ERROR_DOCS_URL.endsWith('/docs/errors.md')).toBe(true);
    expect(catalogue).toContain(`<a id="${code}"></a>`);
    expect(catalogue).toContain(`\n## ${code}\n`);
  });
});
