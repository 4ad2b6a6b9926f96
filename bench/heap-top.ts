/**
 * Reads a sampling heap profile (`servers/child.ts` writes one per server child with
 * BENCH_HEAP_SAMPLE_OUT, with the measured window's request count) into the functions that
 * allocated most, per request.
 *
 *   tsx heap-top.ts <file.heapprofile> [rows]
 */
import { readFileSync } from 'node:fs';
import { type SampledHeap, topAllocations } from './cpu-profile.js';

const [file, rows = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx heap-top.ts <file.heapprofile> [rows]');
  process.exit(2);
}
const heap = JSON.parse(readFileSync(file, 'utf8')) as SampledHeap & { requests?: number };
const per = heap.requests || 1;
const total = heap.samples.reduce((sum, sample) => sum + sample.size, 0);
console.log(`${per} requests; ${(total / per / 1024).toFixed(2)} KB per request sampled in all`);
for (const row of topAllocations(heap, per, Number(rows))) console.log(row);
