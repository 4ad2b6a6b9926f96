/**
 * Compiles a TypeScript entry of this repository into one ESM file under node_modules/.cache, so
 * `node` runs it directly: no tsx, no package manager, no child process between the user and the
 * program. Workspace packages are bundled from their sources (the "source" export condition, as in
 * the tests); every other package stays external and loads from its own node_modules. The result is
 * reused until one of its input files changes, so only the first run (or the first after an edit)
 * pays for the compile, about half a second.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build as esbuild, stop } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'bnpl-kit');
// Changing how this file compiles must invalidate what it compiled before.
const SELF = fileURLToPath(import.meta.url);

/** `size:mtime` of a file, or null when it is gone. */
function stamp(file) {
  try {
    const info = statSync(file);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
}

function upToDate(manifestFile) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    return false;
  }
  return Object.entries(manifest.inputs).every(([file, seen]) => stamp(join(ROOT, file)) === seen);
}

/**
 * Bare imports outside the workspace are resolved here, from the importing file, and kept external
 * by absolute path: pnpm gives each package only its own dependencies, so the bundle's location
 * could not resolve them by name.
 */
const externals = {
  name: 'externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@bnpl-kit/') || args.pluginData === 'inner') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'inner',
      });
      if (found.errors.length > 0) return { errors: found.errors };
      // A Node built-in named without `node:` (e.g. 'fs'): esbuild marks it external itself.
      if (found.external) return { path: args.path, external: true };
      return { path: pathToFileURL(found.path).href, external: true };
    });
  },
};

/** `import.meta.url` keeps meaning the source file, so paths relative to a module still work. */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: 'ts',
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * Returns the path of the compiled `entry` (relative to the repository root), compiling it first
 * when it or any file it imports changed since the last compile.
 */
export async function compile(entry, name) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const outfile = join(CACHE_DIR, `${name}.mjs`);
  const manifestFile = join(CACHE_DIR, `${name}.inputs.json`);
  if (upToDate(manifestFile) && stamp(outfile) !== null) return outfile;

  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'error',
    plugins: [externals, sourceUrls],
    // Bundled CommonJS-style code may still call require(): give the ESM bundle one.
    banner: {
      js: "import { createRequire as __bnplRequire } from 'node:module'; const require = __bnplRequire(import.meta.url);",
    },
  }).finally(() => stop()); // esbuild's service process must not outlive the compile
  // Write then rename: a second process starting meanwhile must never import half a file.
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), relative(ROOT, SELF), 'pnpm-lock.yaml']) {
    inputs[file] = stamp(join(ROOT, file));
  }
  const temporary = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ entry, inputs }, null, 1));
  renameSync(temporary, manifestFile);
  return outfile;
}
