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
const REPO_ROOT = new URL('../../', import.meta.url);
const README_PROJECTS = new URL('tools/readme-examples/test/adapter-readmes.test.ts', REPO_ROOT);

/** The lines of a README's fenced `sh` blocks under `heading`, up to the next `## `. */
function shellLinesUnder(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const end = readme.indexOf('\n## ', start + heading.length + 2);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, body]) => body!.split('\n'));
}

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

  it('leave data-sharing whole only to adapters whose README project certifies it whole, on the same platform', () => {
    const projects = /const FRAMEWORKS = \[([^\]]*)\]/.exec(readFileSync(README_PROJECTS, 'utf8'))?.[1] ?? '';
    const frameworks = [...projects.matchAll(/'([\w-]+)'/g)].map(([, name]) => name);
    for (const [adapter, readmePath] of Object.entries(WHOLE_IN_ITS_README)) {
      expect(adapters.map((a) => a.name)).toContain(adapter);
      expect(adapter).not.toBe(WHOLE_IN_BOTH_MODES);
      const framework = /^packages\/([\w-]+)\/README\.md$/.exec(readmePath)?.[1];
      const readme = readFileSync(new URL(readmePath, REPO_ROOT), 'utf8');
      // tools/readme-examples installs that README's project and runs its lines (data-sharing whole).
      expect(frameworks, readmePath).toContain(framework);
      expect(shellLinesUnder(readme, '## Certify it'), readmePath).toContainEqual(
        expect.stringMatching(/^npx bnpl-kit certify --mode data-sharing /),
      );
      // The README's server runs the platform this adapter entry names (nestjs-express: Express).
      const entryPlatform = adapters.find((a) => a.name === adapter)?.platform;
      if (entryPlatform !== undefined) {
        const installs = shellLinesUnder(readme, '## A complete minimal server').join(' ');
        expect(installs, readmePath).toContain(`@nestjs/platform-${entryPlatform}`);
      }
    }
  });

  it("include the Next.js example's, run by that app's tests after its build", () => {
    expect(readFileSync(NEXT_SUITE, 'utf8')).toContain('describeAdapterSuite(nextAdapter)');
  });
});
