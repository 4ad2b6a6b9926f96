/**
 * An outside project, as a new user would make one: the workspace packages packed with pnpm (which
 * turns `workspace:` ranges into versions), installed from the tarballs with npm in a temporary
 * directory outside the repository, next to the frameworks from the registry.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

// Without the npm_config_* variables pnpm sets for its scripts: a new user's npm has none of them.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, CI: 'true' } });

export function makeOutsideProject(packageDirs: string[], registryPackages: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bnpl-kit-readme-'));
  const tarballs = join(dir, 'tarballs');
  // Built by turbo first: this package's test depends on the builds of exactly the packages it
  // packs (tools/readme-examples/turbo.json), not on every dependency's build, which kept it
  // waiting. One pnpm for every package: each `npx -y pnpm@10` start costs seconds of CPU, and
  // pnpm packs a filtered set as it packs one.
  const filters = packageDirs.flatMap((packageDir) => ['--filter', `./${packageDir}`]);
  run('npx', ['-y', 'pnpm@10', ...filters, 'pack', '--pack-destination', tarballs], REPO_ROOT);
  const packed = readdirSync(tarballs).map((file) => `./tarballs/${file}`);
  if (packed.length !== packageDirs.length) {
    throw new Error(
      `Packed ${packed.length} tarballs for ${packageDirs.length} packages: ${packed.join(', ')}`,
    );
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'outside-market', private: true, type: 'module' }),
  );
  // --prefer-offline: registry metadata already in npm's cache is used without asking again.
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...packed,
      ...registryPackages,
    ],
    dir,
  );
  return dir;
}
