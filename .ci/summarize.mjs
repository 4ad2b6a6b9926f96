// The one closing line CI reads: the test command's own total (scripts/test-summary.mjs), summed
// from the whole CI log's per-package vitest lines.
import { readFileSync } from 'node:fs';
import { summarize } from '../scripts/test-summary.mjs';

const lines = summarize(readFileSync(process.argv[2], 'utf8'), undefined).split('\n');
console.log(lines.at(-1));
