/**
 * Starts the runtime-neutral app (src/app.ts) on Node, Bun, Deno or workerd, each from its npm
 * package's binary (no download at install or run time), bundled once per runtime by esbuild.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bnpl-kit/test-ports';
import { build } from 'esbuild';

export const RUNTIMES = ['node', 'bun', 'deno', 'workerd'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

const require = createRequire(import.meta.url);
const ENTRIES = join(dirname(fileURLToPath(import.meta.url)), 'entries');

/** The binary an npm package ships, made executable if the package manager dropped the bit. */
function packaged(pkg: string, file: string): string {
  const path = join(dirname(require.resolve(`${pkg}/package.json`)), file);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, 0o755);
  }
  return path;
}

export function binaryOf(runtime: RuntimeName): string {
  if (runtime === 'node') return process.execPath;
  if (runtime === 'bun') return packaged('@oven/bun-linux-x64', 'bin/bun');
  if (runtime === 'deno') return packaged('@deno/linux-x64-glibc', 'deno');
  return packaged('@cloudflare/workerd-linux-64', 'bin/workerd');
}

/**
 * Prepended to the bundle: the runtime's Web Crypto refuses Ed25519 as runtimes without it do
 * (NotSupportedError), so the kit's `@noble/ed25519` fallback is what verifies.
 */
const WITHOUT_ED25519 = `{
  const subtle = globalThis.crypto.subtle;
  const isEd25519 = (algorithm) => String(algorithm?.name ?? algorithm).toUpperCase().includes('ED25519');
  for (const method of ['importKey', 'verify', 'generateKey']) {
    const original = subtle[method].bind(subtle);
    const guarded = (...args) => isEd25519(args[method === 'importKey' ? 2 : 0])
      ? Promise.reject(new DOMException('Unrecognized algorithm name', 'NotSupportedError'))
      : original(...args);
    Object.defineProperty(subtle, method, { value: guarded, configurable: true });
  }
}`;

export interface RuntimeOptions {
  /** Start with a Web Crypto that has no Ed25519 (the fallback's test). */
  withoutEd25519?: boolean;
  /** workerd only: serve the market on this PostgreSQL schema (entries/workerd-pg.ts), migrated first. */
  database?: { url: string; schema: string };
}

function workerdConfig(port: number, database?: RuntimeOptions['database']): string {
  // pg is CommonJS on Node's modules: nodejs_compat provides them (node:fs too, for pgpass).
  const pg = database
    ? `compatibilityFlags = ["nodejs_compat", "enable_nodejs_fs_module"],
      bindings = [
        (name = "DATABASE_URL", text = ${JSON.stringify(database.url)}),
        (name = "DATABASE_SCHEMA", text = ${JSON.stringify(database.schema)}),
      ],`
    : '';
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = (
      modules = [(name = "worker.js", esModule = embed "app.js")],
      compatibilityDate = "2025-09-01",
      ${pg}
      globalOutbound = "net",
    )),
    # The sandbox listens on 127.0.0.1: workerd's default outbound only reaches public addresses.
    (name = "net", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`;
}

/** Node's modules pg's CommonJS requires, handed to esbuild's `require` from nodejs_compat's imports. */
const NODE_REQUIRES = [
  'crypto',
  'dns',
  'events',
  'fs',
  'net',
  'path',
  'stream',
  'string_decoder',
  'tls',
  'util',
  'util/types',
];
const nodeRequireShim = [
  ...NODE_REQUIRES.map((name, i) => `import __node${i} from 'node:${name}';`),
  `const require = (name) => {
  const found = { ${NODE_REQUIRES.map((name, i) => `'${name}': __node${i}`).join(', ')} }[name.replace(/^node:/, '')];
  if (!found) throw new Error('not available in workerd: ' + name);
  return found;
};`,
].join('\n');

/** The worker never opens PGlite (it has a database URL); its WebAssembly stays out of the bundle. */
const noPglite = {
  name: 'no-pglite',
  setup(b: import('esbuild').PluginBuild) {
    b.onResolve({ filter: /^@electric-sql\/pglite/ }, (args) => ({
      path: args.path,
      namespace: 'no-pglite',
    }));
    b.onLoad({ filter: /.*/, namespace: 'no-pglite' }, () => ({
      contents:
        'export class PGlite { constructor() { throw new Error("PGlite is not in the workerd bundle"); } }',
    }));
  },
};

export interface RunningRuntime {
  runtime: RuntimeName;
  origin: string;
  close(): Promise<void>;
}

async function waitForHealth(origin: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startRuntime(
  runtime: RuntimeName,
  options: RuntimeOptions = {},
): Promise<RunningRuntime> {
  const database = runtime === 'workerd' ? options.database : undefined;
  if (database) {
    // Migrated here, once: each worker request opens its own store without migrating.
    const { openStore } = await import('@bnpl-kit/store');
    await (await openStore({ databaseUrl: database.url, schema: database.schema, poolSize: 1 })).close();
  }
  const dir = mkdtempSync(join(tmpdir(), `bnpl-kit-${runtime}-`));
  const bundle = join(dir, 'app.js');
  await build({
    entryPoints: [join(ENTRIES, `${runtime}${database ? '-pg' : ''}.ts`)],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: runtime === 'node' ? 'node' : 'neutral',
    mainFields: ['module', 'main'],
    // pg-cloudflare's `workerd` export is its socket; elsewhere it is an empty module.
    conditions: database ? ['workerd', 'worker', 'source'] : ['source'],
    target: 'es2022',
    logLevel: 'silent',
    ...(database && {
      external: ['cloudflare:sockets', 'node:*', ...NODE_REQUIRES],
      plugins: [noPglite],
    }),
    banner: {
      js: [database && nodeRequireShim, options.withoutEd25519 && WITHOUT_ED25519].filter(Boolean).join('\n'),
    },
  });
  let port: number | undefined;
  let args: string[];
  if (runtime === 'workerd') {
    port = await freePort();
    writeFileSync(join(dir, 'config.capnp'), workerdConfig(port, database));
    args = ['serve', join(dir, 'config.capnp')];
  } else if (runtime === 'deno') {
    args = ['run', '--allow-net', '--no-prompt', bundle];
  } else {
    args = runtime === 'bun' ? ['run', bundle] : [bundle];
  }
  const child = spawn(binaryOf(runtime), args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  const exited = once(child, 'exit');
  if (port === undefined) {
    const lines = createInterface({ input: child.stdout! });
    for await (const line of lines) {
      port = (JSON.parse(line) as { port: number }).port;
      break;
    }
    if (port === undefined) throw new Error(`${runtime} printed no port`);
  }
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin, child);
  return {
    runtime,
    origin,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
