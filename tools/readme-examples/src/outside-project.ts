/**
 * An outside project, as a new user would make one: the workspace packages packed with pnpm (which
 * turns `workspace:` ranges into versions), installed from the tarballs with npm in a temporary
 * directory outside the repository, next to the frameworks from the registry.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

// Without the npm_config_* variables pnpm sets for its scripts: a new user's npm has none of them.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));

export const outsideEnv = env;

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, CI: 'true' } });

/** A workspace package's name, and the names of the workspace packages it depends on at run time. */
function workspacePackage(packageDir: string): { name: string; needs: string[] } {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, packageDir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  const needs = Object.entries(manifest.dependencies ?? {})
    .filter(([, range]) => range.startsWith('workspace:'))
    .map(([name]) => name);
  return { name: manifest.name, needs };
}

export interface PackedWorkspace {
  /** Package name → tarball path. */
  tarballs: Map<string, string>;
  /** Package name → the workspace packages it needs, transitively (itself included). */
  closure(name: string): string[];
}

/** Packs the workspace packages once (pnpm turns `workspace:` ranges into versions) into `into`. */
export function packWorkspace(packageDirs: string[], into: string): PackedWorkspace {
  const filters = packageDirs.flatMap((packageDir) => ['--filter', `./${packageDir}`]);
  run('npx', ['-y', 'pnpm@10', ...filters, 'pack', '--pack-destination', into], REPO_ROOT);
  return packedIn(packageDirs, into);
}

/**
 * The tarballs `packWorkspace` left in `dir` for these packages (test/pack-once.ts packs once for
 * every test file: two pnpm packs of one package at once would write the same files).
 */
export function packedIn(packageDirs: string[], into: string): PackedWorkspace {
  const packages = packageDirs.map(workspacePackage);
  const files = readdirSync(into);
  const tarballs = new Map(
    packages.map(({ name }) => {
      const prefix = `${name.replace('@', '').replace('/', '-')}-`;
      const file = files.find((f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)));
      if (!file) throw new Error(`No tarball for ${name} among ${files.join(', ')}`);
      return [name, join(into, file)];
    }),
  );
  const needs = new Map(packages.map((p) => [p.name, p.needs]));
  const closure = (name: string, seen = new Set<string>()): string[] => {
    if (seen.has(name)) return [];
    seen.add(name);
    const deps = needs.get(name);
    if (!deps) throw new Error(`${name} is not among the packed packages`);
    for (const dep of deps) closure(dep, seen);
    return [...seen];
  };
  return { tarballs, closure: (name) => closure(name) };
}

/**
 * An outside project made by running a README's `npm install` lines as written, in order: the
 * registry's packages as named (no version: what npm installs today), the kit's packages from
 * their tarballs (with the kit packages they depend on, which the registry does not have yet).
 */
export async function projectFromInstallLines(
  lines: readonly { dev: boolean; packages: string[] }[],
  packed: PackedWorkspace,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bnpl-kit-readme-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'outside-market', private: true, type: 'module' }),
  );
  const installed = new Set<string>();
  for (const line of lines) {
    // A kit package the line names comes from its tarball; the kit packages it needs too, unless
    // an earlier line installed them (then they stay where that line put them).
    const kit = line.packages.filter((spec) => spec.startsWith('@bnpl-kit/'));
    const needed = kit.flatMap((name) => packed.closure(name).filter((n) => n === name || !installed.has(n)));
    for (const name of needed) installed.add(name);
    const specs = [
      ...new Set(needed.map((name) => packed.tarballs.get(name)!)),
      ...line.packages.filter((spec) => !spec.startsWith('@bnpl-kit/')),
    ];
    // Asynchronous: the other frameworks' certify runs go on meanwhile.
    await promisify(execFile)(
      'npm',
      [
        'install',
        ...(line.dev ? ['--save-dev'] : []),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...specs,
      ],
      { cwd: dir, env: { ...env, CI: 'true' }, maxBuffer: 64 * 1024 * 1024 },
    );
  }
  return dir;
}
