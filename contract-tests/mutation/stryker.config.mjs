/**
 * StrykerJS over the conformance market with certify as the test suite (`pnpm certify:mutation`,
 * then mutation/summarize.mjs prints the score and every survivor and writes mutation/result.json).
 *
 * Stryker mutates a sandbox copy of this package (mutation/.stryker-tmp/sandbox-…), never the working
 * tree, so a crash or an interrupted run leaves no mutant behind (an interrupted run leaves its
 * sandbox, which the next `pnpm certify:mutation` deletes before it starts). The vitest runner loads the
 * instrumented market once and switches mutants on per run; "perTest" coverage runs each mutant
 * against only the mode(s) that execute its code, and reports code no mode runs (the defects' own
 * branches) as "no coverage". The defect switches themselves are not mutated (defect-ignorer.mjs).
 *
 * The default set is the protocol logic a run can afford (about half an hour on two shared cores):
 * webhook verification (WIRE §4) and the market's webhook receiver with its event handling (§3, §4,
 * §6 tolerant reading; events.ts, the event schemas, and market.ts from the end of disburseOnReadiness
 * to the effect of webhookRoute: the line range moves with the file, check it before a run); validation (validate.ts, §1/§5) alone is another ~250 mutants. MUTATION_FILES=all mutates every
 * file of the market (about 1 700 mutants, hours); any other value is a comma-separated list of
 * Stryker --mutate globs (`file.ts:10-40` for lines).
 */
const market = 'test/fixtures/conformance-market';
const ALL = ['market.ts', 'webhook.ts', 'validate.ts', 'service.ts', 'offers.ts', 'claims.ts'];
const PROTOCOL = ['webhook.ts', 'events.ts', 'market.ts:700-831'];
const chosen = process.env.MUTATION_FILES;
const files =
  chosen === 'all'
    ? ALL.map((f) => `${market}/${f}`)
    : chosen
      ? chosen.split(',').filter(Boolean)
      : PROTOCOL.map((f) => `${market}/${f}`);

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './mutation/defect-ignorer.mjs'],
  ignorers: ['defect-switches'],
  vitest: { configFile: 'mutation/vitest.config.ts', related: false },
  mutate: files,
  // Only this package is copied into the sandbox; its node_modules is linked, not copied.
  // tsconfig.json extends ../tsconfig.base.json, which is not beside the sandbox: without a copy,
  // the transform finds this package's own tsconfig.json above the sandbox directory.
  ignorePatterns: ['dist', 'tsconfig.json', 'mutation/reports', 'mutation/.stryker-tmp'],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  // A mutant that makes the market hang is a timeout (counted as detected); a run takes up to ~20 s.
  timeoutMS: 60_000,
  reporters: ['clear-text', 'json', 'progress-append-only'],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  jsonReporter: { fileName: 'mutation/reports/mutation.json' },
  tempDirName: 'mutation/.stryker-tmp',
  cleanTempDir: 'always',
};
