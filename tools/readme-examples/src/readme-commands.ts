/**
 * The shell lines a README gives an integrator (its `npm install` lines, its certify commands) and
 * the packages its example imports, so the outside-project test runs exactly what is written and a
 * README cannot import a package its install line leaves out.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

/** The lines of the ```sh blocks of one README section (from its heading to the next `## `). */
export function shellLinesUnder(markdown: string, heading: string): string[] {
  // A leading line break, so the README's own title is a heading like any other.
  const text = `\n${markdown}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`No "${heading}" section`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

export function readmeLines(readmePath: string, heading: string): string[] {
  return shellLinesUnder(readFileSync(readmePath, 'utf8'), heading);
}

/** `npm install [-D] a b c` → `{ dev, packages }`; undefined for any other line. */
export function npmInstall(line: string): { dev: boolean; packages: string[] } | undefined {
  const words = line.split(/\s+/);
  if (words[0] !== 'npm' || !['install', 'i', 'add'].includes(words[1] ?? '')) return undefined;
  const rest = words.slice(2);
  const dev = rest.some((w) => w === '-D' || w === '--save-dev');
  return { dev, packages: rest.filter((w) => !w.startsWith('-')) };
}

/** A package specifier without its version: `@nestjs/core@^12` → `@nestjs/core`. */
export function packageName(specifier: string): string {
  const at = specifier.indexOf('@', 1);
  return at > 0 ? specifier.slice(0, at) : specifier;
}

/** The packages a module imports (`node:` and built-ins left out), by package name. */
export function importedPackages(code: string): string[] {
  const names = [...code.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  const builtins = new Set(builtinModules);
  return [
    ...new Set(
      names
        .filter((n) => !n.startsWith('node:') && !n.startsWith('.') && !builtins.has(n))
        .map((n) => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0]!)),
    ),
  ];
}
