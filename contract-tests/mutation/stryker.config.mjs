/**
 * StrykerJS over the conformance market with certify as the test suite (`pnpm certify:mutation`).
 * MUTATION_SAMPLE=ci mutates a fixed small sample (the webhook receiver) against the webhook checks
 * in basic mode, for CI; otherwise every file of the market against the whole suite in both modes.
 */
const sample = process.env.MUTATION_SAMPLE === 'ci';
const market = 'test/fixtures/conformance-market';

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.config.ts', related: false },
  mutate: sample
    ? [`${market}/webhook.ts:40-70`]
    : [
        `${market}/market.ts`,
        `${market}/webhook.ts`,
        `${market}/validate.ts`,
        `${market}/service.ts`,
        `${market}/offers.ts`,
        `${market}/claims.ts`,
      ],
  inPlace: true,
  coverageAnalysis: 'off',
  concurrency: 1,
  timeoutMS: 120_000,
  reporters: ['clear-text', 'json'],
  jsonReporter: { fileName: 'mutation/reports/mutation.json' },
  tempDirName: 'mutation/.stryker-tmp',
  cleanTempDir: 'always',
};
