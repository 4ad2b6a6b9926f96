/** `pnpm docs:generate`: rewrites the generated parts of the documents (see generated.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { BLOCKS, FILES, root, withBlock } from './generated.ts';

for (const [file, render] of Object.entries(FILES)) {
  writeFileSync(new URL(file, root), render());
  console.log(`wrote ${file}`);
}
for (const block of BLOCKS) {
  const url = new URL(block.file, root);
  writeFileSync(url, withBlock(readFileSync(url, 'utf8'), block));
  console.log(`updated ${block.file} (${block.name})`);
}
