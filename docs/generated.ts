/**
 * The parts of the documents that are facts of the code, rendered from it: the README's endpoint
 * table (the market route table), the error catalogue (errors.ts), the adapters' sizes, certify's
 * check counts per mode and the sandbox's webhook retry schedule: numbers that would go stale.
 * `pnpm docs:generate` writes them; test/generated.test.ts fails when a committed copy is stale.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checksFor, contractChecks } from '@bnpl-kit/contract-tests';
import { DEFAULT_PATHS } from '@bnpl-kit/core';
import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  MARKET_OPERATIONS,
  MARKET_ROUTES,
  type MarketRouteAuth,
  type MarketRouteDefinition,
  marketRoutePath,
} from '@bnpl-kit/core/wire';
import { DEFAULT_RETRY_SCHEDULE_MS } from '@bnpl-kit/sandbox';
import { buildSync } from 'esbuild';

export const root = new URL('../', import.meta.url);

const AUTH: Record<MarketRouteAuth, string> = {
  'market-systems': 'market systems (`authenticateInternalAPIClient`)',
  'user-session': 'the signed-in user (`authenticateInternalUser`)',
  'service-token': 'the service (bearer token, introspected)',
  'webhook-signature': 'the service (Ed25519 webhook signature)',
  none: 'nobody (a browser)',
};

/** The README's endpoint table: every market route, its modes, caller, answers and problems. */
export function endpointTable(): string {
  const rows = MARKET_OPERATIONS.map((name) => {
    const route: MarketRouteDefinition = MARKET_ROUTES[name];
    const path = marketRoutePath(route, DEFAULT_PATHS);
    const modes = route.modes.join(', ') + (route.sandboxOnly ? ' (sandbox only)' : '');
    const answers = Object.keys(route.answers).join(', ');
    const problems = route.problems.map((code) => `[${code}](docs/errors.md#${code})`).join(' ');
    return `| \`${route.method} ${path}\` | ${route.summary} | ${modes} | ${AUTH[route.auth]} | ${answers} | ${problems} |`;
  });
  return [
    '| endpoint | what it does | modes | who calls it | success | problems (besides `internal`) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/errors.md: one entry per code, its anchor the code itself (the problem `type` points there). */
export function errorCatalogue(): string {
  const index = ERROR_CODES.map((code) => {
    const entry = ERROR_CATALOGUE[code];
    return `| [\`${code}\`](#${code}) | ${entry.status} | ${cell(entry.title)} | ${entry.retryable ? 'yes' : 'no'} |`;
  });
  const entries = ERROR_CODES.map((code) => {
    const entry = ERROR_CATALOGUE[code];
    return [
      `<a id="${code}"></a>`,
      '',
      `## ${code}`,
      '',
      `**${entry.status}** · ${entry.title} · ${entry.retryable ? 'retryable' : 'not retryable'}`,
      '',
      `- **When:** ${entry.when}`,
      `- **What to do:** ${entry.action}`,
    ].join('\n');
  });
  return [
    '# Error catalogue',
    '',
    '<!-- Generated from ERROR_CATALOGUE in packages/core/src/errors.ts by `npx -y pnpm@10 docs:generate`; do not edit. -->',
    '',
    'Every failure a bnpl-kit market answers is an RFC 9457 problem (`application/problem+json`, WIRE §2)',
    'whose `code` is one of these and whose `type` is the URL of the code’s entry below. The reference',
    'servers serve the same entries at `/errors/<code>`.',
    '',
    '| code | status | title | retry? |',
    '|---|---|---|---|',
    ...index,
    '',
    entries.join('\n\n'),
    '',
  ].join('\n');
}

/** Lines of a source file, as `wc -l` counts them. */
function lines(path: string): number {
  return readFileSync(new URL(path, root), 'utf8').split('\n').length - 1;
}

const ADAPTERS = {
  express: ['packages/express/src/index.ts'],
  koa: ['packages/koa/src/index.ts'],
  hono: ['packages/hono/src/index.ts', 'packages/hono/src/node-body.ts'],
  fastify: ['packages/fastify/src/index.ts'],
  nestjs: ['packages/nestjs/src/index.ts'],
} as const;

/** The README's sentence on the adapters' sizes. */
export function adapterSizes(): string {
  const sizes = Object.entries(ADAPTERS).map(
    ([name, files]) => `${name} ${files.map(lines).reduce((a, b) => a + b, 0)}`,
  );
  return `Each adapter only translates (lines of source, comments included: ${sizes.join(', ')})`;
}

/** How many checks `bnpl-kit certify` runs, in all and per mode. */
export function certifyCounts(): string {
  const basic = checksFor('basic').length;
  const dataSharing = checksFor('data-sharing').length;
  return `${contractChecks.length} checks: ${basic} in basic mode, ${dataSharing} in data-sharing mode`;
}

/** `0 s, 5 s, 30 s, 2 min, …`: a delay as a person reads it, in its largest whole unit. */
function delay(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  }
  return ms === 0 ? '0 s' : `${ms} ms`;
}

/** The sandbox's webhook attempts, first one included. */
export function retrySchedule(): string {
  return DEFAULT_RETRY_SCHEDULE_MS.map(delay).join(', ');
}

/**
 * The web SDK's size as a page downloads it: the package entry bundled (it has no dependencies),
 * minified and gzipped, in kB (1000 bytes) to one decimal.
 */
export function webSdkSize(): string {
  const [bundle] = buildSync({
    entryPoints: [fileURLToPath(new URL('packages/web/src/index.ts', root))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  }).outputFiles;
  const kb = gzipSync(bundle!.contents, { level: 9 }).length / 1000;
  return `about ${kb.toFixed(1)} KB minified and gzipped`;
}

/** A generated block of a document: the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export interface GeneratedBlock {
  file: string;
  name: string;
  render: () => string;
}

export const BLOCKS: readonly GeneratedBlock[] = [
  { file: 'README.md', name: 'endpoints', render: endpointTable },
  { file: 'README.md', name: 'adapter-sizes', render: adapterSizes },
  { file: 'README.md', name: 'certify-counts', render: certifyCounts },
  { file: 'contract-tests/README.md', name: 'certify-counts', render: certifyCounts },
  { file: 'README.md', name: 'webhook-retries', render: retrySchedule },
  { file: 'README.md', name: 'web-sdk-size', render: webSdkSize },
  { file: 'docs/operations.md', name: 'webhook-retries', render: retrySchedule },
  { file: 'docs/capacity.md', name: 'webhook-retries', render: retrySchedule },
];

/** Whole generated files. */
export const FILES: Readonly<Record<string, () => string>> = {
  'docs/errors.md': errorCatalogue,
};

const markers = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const;

/** `text` with the block replaced by what the code renders today. */
export function withBlock(text: string, block: GeneratedBlock): string {
  const [start, end] = markers(block.name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${block.file} has no ${start} … ${end} block`);
  const body = block.render();
  const inline = !body.includes('\n');
  return `${text.slice(0, from + start.length)}${inline ? body : `\n${body}\n`}${text.slice(to)}`;
}
