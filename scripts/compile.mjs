/**
 * Compiles a TypeScript entry of this repository into one ESM file under node_modules/.cache, so
 * `node` runs it directly: no tsx, no package manager, no child process between the user and the
 * program. Workspace packages are bundled from their sources (the "source" export condition, as in
 * the tests); every other package stays external and loads from its own node_modules. The result is
 * reused until one of its input files changes, so only the first run (or the first after an edit)
 * pays for the compile, a few seconds (the README gives the measured times).
 *
 * Code splitting keeps a dynamic `import()` lazy: what a module imports only when the configuration
 * needs it (a framework, the embedded sandbox, PGlite) becomes a chunk of its own, loaded on that
 * call with its external packages. In one file every external import would be hoisted to the top
 * and load at start-up whatever the configuration.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

function readManifest(manifestFile) {
  try {
    return JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    return undefined;
  }
}

function upToDate(manifest) {
  if (manifest === undefined) return false;
  // The bundle imports what stays external by absolute path: a checkout moved (or copied) elsewhere
  // would import from where it was, so a build made under another root is never reused.
  if (manifest.root !== ROOT) return false;
  return Object.entries(manifest.inputs).every(([file, seen]) => stamp(join(ROOT, file)) === seen);
}

/** Write then rename: a second process starting meanwhile must never import half a file. */
function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/**
 * Packages compiled into the bundle, with everything they import, rather than loaded from
 * node_modules: what every server loads at start-up and that is made of many small modules (zod
 * alone is 95 files, hono 26, pg and pino with their dependencies about 60), which node would
 * resolve, read and compile one by one at every start. None of them reads files of its own at run
 * time in the way the servers use them. Everything else stays external (express and koa load only
 * when chosen; PGlite reads its WebAssembly next to its own files).
 */
const BUNDLED = new Set(['zod', 'hono', '@hono/node-server', 'pg', 'pino']);
/**
 * The OpenTelemetry API and SDK (about 180 CommonJS files at every start): bundled too. Two copies
 * of the API (this bundle's and one an application loads itself) still share one set of providers,
 * which the API keeps on a global for that reason.
 */
const BUNDLED_SCOPES = ['@opentelemetry/'];
const bundledPackage = (name) => BUNDLED.has(name) || BUNDLED_SCOPES.some((scope) => name.startsWith(scope));

const packageName = (path) => path.split('/', path.startsWith('@') ? 2 : 1).join('/');

/** `…/node_modules/<name>/` of a resolved file: the directory of the package it belongs to. */
function packageDir(file) {
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const rest = file.slice(at + '/node_modules/'.length);
  return `${file.slice(0, at)}/node_modules/${packageName(rest)}/`;
}

/**
 * Bare imports outside the workspace are resolved here, from the importing file: a BUNDLED
 * package and whatever it imports are compiled in; anything else is kept external by absolute
 * path, because pnpm gives each package only its own dependencies, so the bundle's location could
 * not resolve them by name.
 */
const externals = {
  name: 'externals',
  setup(build) {
    const bundledDirs = new Set();
    const insideBundled = (file) => {
      const dir = file && packageDir(file);
      return dir !== undefined && bundledDirs.has(dir);
    };
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@bnpl-kit/') || args.pluginData === 'inner') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'inner',
      });
      const bundle = bundledPackage(packageName(args.path)) || insideBundled(args.importer);
      // An optional dependency that is not installed (pg's pg-native, required in a try block):
      // left to esbuild, which keeps the require() as it is.
      if (found.errors.length > 0) return bundle ? undefined : { errors: found.errors };
      // A Node built-in named without `node:` (e.g. 'fs'): esbuild marks it external itself.
      if (found.external) return { path: args.path, external: true };
      if (bundle) {
        bundledDirs.add(packageDir(found.path));
        return { path: found.path };
      }
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
  const outdir = join(CACHE_DIR, name);
  const outfile = join(outdir, `${name}.mjs`);
  const manifestFile = join(CACHE_DIR, `${name}.inputs.json`);
  const previous = readManifest(manifestFile);
  if (upToDate(previous) && stamp(outfile) !== null) return outfile;

  // Loaded only to compile: a start that reuses the cached build should not pay for esbuild.
  const { build, stop } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [{ in: join(ROOT, entry), out: name }],
    outdir,
    outExtension: { '.js': '.mjs' },
    // Content-hashed: a chunk's name changes with its contents, so old and new builds never mix.
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    sourcemap: 'linked',
    // Stack traces need the mappings, not the sources (they are on disk): a smaller map for node
    // to read and keep at every start.
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'error',
    plugins: [externals, sourceUrls],
    // Bundled CommonJS-style code may still call require(): give the ESM bundle one.
    banner: {
      js: "import { createRequire as __bnplRequire } from 'node:module'; const require = __bnplRequire(import.meta.url);",
    },
  }).finally(() => stop()); // esbuild's service process must not outlive the compile
  // Chunks first, the entry last: the entry is what makes a new build visible.
  const files = [...result.outputFiles].sort(
    (a, b) => Number(a.path === outfile) - Number(b.path === outfile),
  );
  for (const file of files) writeAtomically(file.path, file.contents);
  const outputs = files.map((file) => relative(outdir, file.path));
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), relative(ROOT, SELF), 'pnpm-lock.yaml']) {
    inputs[file] = stamp(join(ROOT, file));
  }
  // Chunks of the build before the previous one go: a process started from the previous entry may
  // still be importing its chunks, nothing can still be starting from the one before.
  const keep = new Set([...outputs, ...(previous?.outputs ?? [])]);
  for (const stale of previous?.previousOutputs ?? []) {
    if (!keep.has(stale)) rmSync(join(outdir, stale), { force: true });
  }
  writeAtomically(
    manifestFile,
    JSON.stringify({ root: ROOT, entry, inputs, outputs, previousOutputs: previous?.outputs ?? [] }, null, 1),
  );
  return outfile;
}
