// Sums vitest's per-package "Tests  …" lines into the one closing line CI reads.
import { readFileSync } from 'node:fs';

const ESC = String.fromCharCode(27);
const text = readFileSync(process.argv[2], 'utf8')
  .split(ESC)
  .map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, '')))
  .join('');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const line of text.split('\n')) {
  const match = /\bTests\s+(.*?)\s*\(\d+\)\s*$/.exec(line);
  if (!match) continue;
  const part = match[1] ?? '';
  passed += Number(/(\d+) passed/.exec(part)?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(part)?.[1] ?? 0);
  skipped += Number(/(\d+) skipped/.exec(part)?.[1] ?? 0);
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
