/**
 * `pnpm openapi`: writes docs/openapi/*.json from the codecs. `--check` writes nothing and exits 1
 * naming every document that differs from its committed copy (CI runs the same comparison as a
 * test, docs/test/openapi.test.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { openApiDocuments, openApiText } from '../src/openapi.js';

const dir = new URL('../../../docs/openapi/', import.meta.url);
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [name, document] of Object.entries(openApiDocuments())) {
  const file = new URL(name, dir);
  const text = openApiText(document);
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === text) continue;
  if (check) stale.push(name);
  else {
    await writeFile(file, text);
    console.log(`wrote docs/openapi/${name}`);
  }
}
if (stale.length > 0) {
  console.error(`Stale OpenAPI documents (run pnpm openapi): ${stale.join(', ')}`);
  process.exit(1);
}
