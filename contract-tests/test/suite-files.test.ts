/**
 * Every adapter is certified: each entry of src/adapters.ts has its contract-suite file under
 * test/suite (one file per adapter, so they run in parallel workers), and the Next.js example,
 * which needs its build, certifies itself in apps/nextjs-example. A new adapter without a file would
 * otherwise go uncertified without any test failing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapters } from '../src/adapters.js';
import { WHOLE_IN_BOTH_MODES, WHOLE_IN_ITS_README } from './support/adapter-contract-suite.js';

const SUITE_DIR = new URL('./suite/', import.meta.url);
const NEXT_SUITE = new URL('../../apps/nextjs-example/test/contract-suite.test.ts', import.meta.url);
describe('the contract suite files', () => {
  it('are one per adapter of src/adapters.ts, named after it, each running its adapter', () => {
    const files = readdirSync(SUITE_DIR).filter((f) => f.endsWith('.test.ts'));
    expect(files.map((f) => f.replace(/\.test\.ts$/, '')).sort()).toEqual(adapters.map((a) => a.name).sort());
    for (const file of files) {
      const name = file.replace(/\.test\.ts$/, '');
      expect(readFileSync(new URL(file, SUITE_DIR), 'utf8'), file).toContain(
        `describeAdapterSuite(adapterNamed('${name}'))`,
      );
    }
  });

  it('certify one adapter that exists whole in both modes here', () => {
    expect(adapters.map((a) => a.name)).toContain(WHOLE_IN_BOTH_MODES);
  });

  // Each one's README project runs data-sharing whole: tools/readme-examples/test/adapter-readmes.test.ts.
  it('leave data-sharing whole to README projects only for adapters that exist, hono aside', () => {
    for (const adapter of Object.keys(WHOLE_IN_ITS_README)) {
      expect(adapters.map((a) => a.name)).toContain(adapter);
      expect(adapter).not.toBe(WHOLE_IN_BOTH_MODES);
    }
  });

  it("include the Next.js example's, run by that app's tests after its build", () => {
    expect(readFileSync(NEXT_SUITE, 'utf8')).toContain('describeAdapterSuite(nextAdapter)');
  });

  // The README says in words which adapter runs what here; the two lists above are the facts.
  it("are the ones this package's README names for each share of the runs", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const names = (list: string | undefined) => (list ?? '').split(/, | and /).filter(Boolean);
    const [, bothWhole] = /So (\S+) runs both modes whole here/.exec(readme) ?? [];
    const [, smokeInBoth] = /; ([\w, -]+?) run the smoke set in both\b/.exec(readme) ?? [];
    const [, dataSharingWhole] =
      /; ([\w-]+(?:, [\w-]+)*) and the Next\.js example, which no README certifies, run data-sharing whole here/.exec(
        readme,
      ) ?? [];
    expect(bothWhole).toBe(WHOLE_IN_BOTH_MODES);
    expect(names(smokeInBoth).sort()).toEqual(Object.keys(WHOLE_IN_ITS_README).sort());
    const rest = adapters
      .map((a) => a.name)
      .filter((name) => name !== WHOLE_IN_BOTH_MODES && !(name in WHOLE_IN_ITS_README));
    expect(names(dataSharingWhole).sort()).toEqual(rest.sort());
  });
});
