/**
 * "Done when an outside project written from the package READMEs alone passes certify": each
 * adapter README's complete server, taken verbatim, runs on the packed packages installed with npm
 * outside the repository, and certify passes it strictly (no failure, no skip) in every mode the
 * README claims. One install serves the three frameworks.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyExample } from '../src/certify-example.js';
import { makeOutsideProject, REPO_ROOT } from '../src/outside-project.js';
import { exampleModule } from '../src/readme-example.js';

const FRAMEWORKS = ['express', 'koa', 'hono'] as const;
const MODES = ['basic'] as const;
let project: string;

beforeAll(() => {
  project = makeOutsideProject(
    ['packages/core', 'packages/store', ...FRAMEWORKS.map((f) => `packages/${f}`)],
    ['express@^5.1.0', 'koa@^3.0.0', 'koa-mount@^4.2.0', 'hono@^4.9.0', '@hono/node-server@^1.19.0'],
  );
  // Packing and one `npm install` from the registry: minutes on a loaded machine; a timeout means hung.
}, 900_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each(FRAMEWORKS)('the @bnpl-kit/%s README server', (framework) => {
  const module = exampleModule(join(REPO_ROOT, 'packages', framework, 'README.md'));

  it('compares no token with === (constant time only)', () => {
    expect(module).not.toMatch(/===\s*[\w.?]*(token|Token)/);
  });

  it.each(MODES)('passes certify strictly in %s mode', async (mode) => {
    const { report, text, output } = await certifyExample(project, module, mode);
    expect(report.ok, `${text}\n--- server output ---\n${output}`).toBe(true);
  });
});
