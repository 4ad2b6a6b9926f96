/** The workspace's packages as their package.json files describe them. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A YAML list at the top level of pnpm-workspace.yaml (plain or quoted items). */
export function workspaceList(key: string): string[] {
  const yaml = readFileSync(join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const block = yaml.match(new RegExp(`^${key}:\\n((?:  - .+\\n)+)`, 'm'))?.[1] ?? '';
  return [...block.matchAll(/^ {2}- ['"]?([^'"\n]+)['"]?$/gm)].map((m) => m[1]!);
}

type ExportTarget = string | { [condition: string]: ExportTarget } | null;

export interface WorkspacePackage {
  name: string;
  /** Relative to the repository root, e.g. `packages/core`. */
  dir: string;
  private: boolean;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  /** Subpath (`.`, `./wire`) → the TypeScript source its `source` condition points at. */
  sourceEntries: Record<string, string>;
}

interface PackageJson {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports?: Record<string, ExportTarget>;
}

function packageDirs(): string[] {
  const dirs: string[] = [];
  // pnpm-workspace.yaml's globs: a package outside them is not part of the workspace.
  for (const pattern of workspaceList('packages')) {
    if (!pattern.endsWith('/*')) {
      dirs.push(pattern);
      continue;
    }
    const parent = pattern.slice(0, -2);
    for (const child of readdirSync(join(REPO_ROOT, parent)).sort()) {
      const dir = `${parent}/${child}`;
      if (statSync(join(REPO_ROOT, dir)).isDirectory()) dirs.push(dir);
    }
  }
  return dirs.filter((dir) => {
    try {
      return statSync(join(REPO_ROOT, dir, 'package.json')).isFile();
    } catch {
      return false;
    }
  });
}

function sourceEntries(exports: PackageJson['exports']): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(exports ?? {})) {
    if (target !== null && typeof target === 'object' && typeof target.source === 'string') {
      entries[subpath] = target.source;
    }
  }
  return entries;
}

export function workspacePackages(): WorkspacePackage[] {
  return packageDirs().map((dir) => {
    const json = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as PackageJson;
    return {
      name: json.name,
      dir,
      private: json.private === true,
      dependencies: json.dependencies ?? {},
      devDependencies: json.devDependencies ?? {},
      peerDependencies: json.peerDependencies ?? {},
      sourceEntries: sourceEntries(json.exports),
    };
  });
}
