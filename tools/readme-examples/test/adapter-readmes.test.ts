/**
 * "Done when an outside project written from the package READMEs alone passes certify strictly in
 * both modes with durable disbursement and reconciliation, in under 60 lines of glue": each adapter
 * README's complete server, taken verbatim, runs on the packed packages installed with npm outside
 * the repository, and certify passes it strictly (no failure, no skip, nothing declared lacking: it
 * is restarted on its data directory for the restart check) in both integration modes. It must run
 * the durable worker and stop cleanly on SIGTERM. One install serves the five frameworks.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyExample } from '../src/certify-example.js';
import { makeOutsideProject, REPO_ROOT } from '../src/outside-project.js';
import { exampleModule, glueLines } from '../src/readme-example.js';

const FRAMEWORKS = ['express', 'koa', 'hono', 'fastify', 'nestjs'] as const;
const MODES = ['basic', 'data-sharing'] as const;
/** The Done-when's bound on what an integrator writes per framework. */
const MAX_GLUE_LINES = 60;
let project: string;

beforeAll(() => {
  project = makeOutsideProject(
    ['packages/core', 'packages/store', ...FRAMEWORKS.map((f) => `packages/${f}`)],
    [
      'express@^5.1.0',
      'koa@^3.0.0',
      'koa-mount@^4.2.0',
      'hono@^4.9.0',
      '@hono/node-server@^1.19.0',
      'fastify@^5.6.0',
      '@nestjs/common@^11.1.0',
      '@nestjs/core@^11.1.0',
      '@nestjs/platform-express@^11.1.0',
      'reflect-metadata@^0.2.0',
      'rxjs@^7.8.0',
    ],
  );
  // Packing and one `npm install` from the registry: minutes on a loaded machine; a timeout means hung.
}, 900_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each(FRAMEWORKS)('the @bnpl-kit/%s README server', (framework) => {
  const readme = join(REPO_ROOT, 'packages', framework, 'README.md');
  const module = exampleModule(readme);

  it(`is under ${MAX_GLUE_LINES} lines of glue`, () => {
    expect(glueLines(readme)).toBeLessThan(MAX_GLUE_LINES);
  });

  it('runs the durable worker (disbursement on readiness, reconciliation) with readiness and drain', () => {
    expect(module).toMatch(/createMarketWorker\(/);
    expect(module).toMatch(/\.start\(\)/);
    expect(module).toMatch(/enqueueDisbursement\(tx,/);
    expect(module).not.toMatch(/reconciliation:\s*false/);
    expect(module).toMatch(/readinessResponse\(/);
    expect(module).toMatch(/drainOnSignals\(/);
  });

  it('compares no token with === (constant time only)', () => {
    expect(module).not.toMatch(/===\s*[\w.?]*(token|Token)/);
  });

  // The two modes side by side: each has its own sandbox, port and data directory, and a run
  // mostly waits (on the market's service timeout, on deliveries), so a pair takes about one's time.
  it.concurrent.for(MODES)('passes certify strictly in %s mode', async (mode, { expect }) => {
    const { report, text, output, exitCodes, readiness } = await certifyExample(project, module, mode);
    expect(report.ok, `${text}\n--- server output ---\n${output}`).toBe(true);
    // Ready, and answered as the kit's readinessResponse does: never from a cache.
    expect(readiness).toEqual({ status: 200, cacheControl: 'no-store' });
    expect(report.lacks).toEqual([]);
    // Each stop (the restart check's and the last) drained and exited by itself with 0.
    expect(exitCodes, output).toEqual([0, 0]);
  });
});
