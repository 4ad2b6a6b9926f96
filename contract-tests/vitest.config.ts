import { defineConfig } from 'vitest/config';
import { longestFirst } from '../scripts/longest-files-first.ts';
import shared from '../vitest.shared.ts';

// Vitest hands ssr.resolve.conditions to its Node workers as --conditions; with "import" among them,
// Node's require() of a dual package (is-promise, used by Express's router) loads the ESM build and
// gets a namespace object instead of the function. Vite adds import/require by itself.
const ssrConditions = (shared.ssr?.resolve?.conditions ?? []).filter((c) => c !== 'import');

/**
 * The files that start the framework adapters (Nest and Hono install their own globals) or msw's
 * interceptors run each in a fresh worker. Every other file changes no global state (its servers,
 * sandboxes and fake timers are undone by the file itself), so those run one after another in a
 * shared worker: Node, vitest and the suite's modules (core, the sandbox, ajv's compiled OpenAPI
 * schemas) load once per worker instead of once per file (runner … mutation-result, seven files:
 * ~42 → 9.5 CPU-seconds).
 *
 * The contract suite is one file per adapter (test/suite/<adapter>.test.ts, test/suite-files.test.ts
 * fails when an adapter has none), so the adapters run side by side instead of in one file.
 */
const ADAPTER_FILES = [
  'test/suite/*.test.ts',
  'test/suite-files.test.ts',
  'test/adapter-behaviour.test.ts',
  'test/adapter-body-sizes.test.ts',
  'test/adapter-invented-tokens.test.ts',
];

// Each project names its own files (a project's `include` would add to an inherited one).
const { include = [], ...test } = shared.test ?? {};

export default defineConfig({
  ...shared,
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions: ssrConditions } },
  test: {
    ...test,
    // Four files at once even on two cores (vitest's default there is one worker): the suite's files
    // mostly wait (on the markets, the sandbox's timeouts and deliveries: the hono suite alone is
    // 16 CPU-seconds in 44 s). With one worker the package left a core idle for minutes at the end of
    // `pnpm test`; with two, then three, it was still the command's last package to finish (545 s of
    // a 613 s run; 668 s of 735 s under load, its files 1,674 s in all).
    maxWorkers: 4,
    // Longest first (measured inside the whole test command, issue 36's notes): each adapter's suite
    // and the broken markets (~140–220 s), the conformance variants (~170 s), then the conformance
    // market's whole runs, a file per mode (~150 s each). On a fresh clone vitest ran them after
    // the adapters project's shorter files, and the conformance market, then one ~300 s file, last.
    sequence: {
      sequencer: longestFirst([
        'test/suite/',
        'test/broken-markets.test.ts',
        'test/conformance-market-variants.test.ts',
        'test/conformance-market.data-sharing.test.ts',
        'test/conformance-market.basic.test.ts',
      ]),
    },
    projects: [
      { extends: true, test: { name: 'adapters', include: ADAPTER_FILES } },
      { extends: true, test: { name: 'shared-worker', include, exclude: ADAPTER_FILES, isolate: false } },
    ],
  },
});
