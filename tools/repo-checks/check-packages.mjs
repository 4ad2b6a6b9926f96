#!/usr/bin/env node
// Lints every published package as npm would ship it: publint (package.json `exports`, files,
// formats) and Are the Types Wrong (the types each resolution mode sees). Run after a build:
// `pnpm check:packages` builds first. Both tools are plain JavaScript; nothing is downloaded.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

let failed = 0;
for (const dir of publishedPackageDirs()) {
  const cwd = join(root, dir);
  const run = (tool, args) => {
    try {
      execFileSync(bin(tool), args, { cwd, stdio: 'inherit' });
    } catch {
      failed++;
      console.error(`check:packages: ${tool} failed for ${dir}`);
    }
  };
  // `npm pack`, not `pnpm pack`: CI runs pnpm through npx, so no `pnpm` binary is on PATH.
  run('publint', ['run', '--strict', '--pack', 'npm']);
  // node16 and bundler resolution: the `exports` subpaths are invisible to node10 by design.
  run('attw', ['--pack', '.', '--profile', 'node16', '--format', 'table-flipped']);
}
if (failed > 0) {
  console.error(`check:packages: ${failed} check(s) failed`);
  process.exit(1);
}
console.log('check:packages: every published package passes publint and attw');
