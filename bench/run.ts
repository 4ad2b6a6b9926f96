/**
 * `pnpm bench [name…]`: runs every bench module, or the named ones. To add a module, write
 * `bench/<name>.ts` exporting `default` as a `BenchModule` and add one line below.
 */
import type { BenchModule } from './harness.js';

const modules: Record<string, () => Promise<{ default: BenchModule }>> = {
  signature: () => import('./signature.js'),
  adapters: () => import('./adapters.js'),
  'webhook-pg': () => import('./webhook-pg.js'),
  'webhook-pg-scale': () => import('./webhook-pg-scale.js'),
  'orders-pg': () => import('./orders-pg.js'),
  coldstart: () => import('./coldstart.js'),
  runtimes: () => import('./runtimes.js'),
  'test-suite': () => import('./test-suite.js'),
  'pglite-stall': () => import('./pglite-stall.js'),
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = wanted.filter((name) => !(name in modules));
if (unknown.length > 0) {
  console.error(
    `Unknown bench module(s): ${unknown.join(', ')}. Available: ${Object.keys(modules).join(', ')}`,
  );
  process.exit(2);
}

for (const [name, load] of Object.entries(modules)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const { default: bench } = await load();
  console.log(`\n## ${bench.title}\n`);
  const started = performance.now();
  await bench.run();
  console.log(`\n(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
