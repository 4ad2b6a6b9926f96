/**
 * docs/openapi must be what the codecs generate today: a stale committed document fails here (run
 * `pnpm openapi`). CI also lints them (`pnpm openapi:lint`).
 */
import { readFile } from 'node:fs/promises';
import { openApiDocuments, openApiText } from '@bnpl-kit/sandbox';
import { describe, expect, it } from 'vitest';

const dir = new URL('../openapi/', import.meta.url);
const documents = openApiDocuments();

describe('docs/openapi', () => {
  it.each(Object.keys(documents))('%s is current (regenerate with pnpm openapi)', async (name) => {
    const committed = await readFile(new URL(name, dir), 'utf8').catch(() => '(missing)');
    expect(
      committed === openApiText(documents[name]!),
      `docs/openapi/${name} is stale: run pnpm openapi`,
    ).toBe(true);
  });
});
