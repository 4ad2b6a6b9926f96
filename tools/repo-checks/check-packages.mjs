#!/usr/bin/env node
// Lints every published package as npm would ship it: publint (package.json `exports`, files,
// formats) and Are the Types Wrong (the types each resolution mode sees). Run after a build:
// `pnpm check:packages` builds first. Both tools are plain JavaScript; nothing is downloaded.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name) => join(root, 'node_modules/.bin', name);

function publishedPackageDirs() {
  const dirs = ['contract-tests'];
  for (const child of readdirSync(join(root, 'packages')).sort()) dirs.push(`packages/${child}`);
  return dirs.filter((dir) => {
    const file = join(root, dir, 'package.json');
    return (
      statSync(file, { throwIfNoEntry: false })?.isFile() &&
      JSON.parse(readFileSync(file, 'utf8')).private !== true
    );
  });
}

/** Runs `tool` in `cwd`; its output comes back whole, so packages checked side by side do not interleave. */
function runTool(tool, args, cwd) {
  return new Promise((done) => {
    const child = spawn(bin(tool), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => done({ ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => done({ ok: code === 0, output }));
  });
}

async function checkPackage(dir) {
  const cwd = join(root, dir);
  const problems = [];
  let output = '';
  for (const [tool, args] of [
    // `npm pack`, not `pnpm pack`: CI runs pnpm through npx, so no `pnpm` binary is on PATH.
    ['publint', ['run', '--strict', '--pack', 'npm']],
    // node16 and bundler resolution: the `exports` subpaths are invisible to node10 by design.
    ['attw', ['--pack', '.', '--profile', 'node16', '--format', 'table-flipped']],
  ]) {
    const result = await runTool(tool, args, cwd);
    output += result.output;
    if (!result.ok) problems.push(`check:packages: ${tool} failed for ${dir}`);
  }
  return { output, problems };
}

// Both tools are single-threaded and spend their time packing and resolving one package: one
// package per core checked side by side (56 s → half on two cores), each package's output printed whole.
const dirs = publishedPackageDirs();
const results = new Array(dirs.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), dirs.length) }, async () => {
    while (next < dirs.length) {
      const index = next++;
      results[index] = await checkPackage(dirs[index]);
    }
  }),
);
const problems = results.flatMap((result) => {
  process.stdout.write(result.output);
  return result.problems;
});
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`check:packages: ${problems.length} check(s) failed`);
  process.exit(1);
}
console.log('check:packages: every published package passes publint and attw');
