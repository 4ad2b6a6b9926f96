/**
 * Each adapter README, followed as written by someone outside the repository: a project made by its
 * `npm install` lines (the kit's packages from their packed tarballs, everything else as npm installs
 * it today: the newest majors), its complete server saved as `server.mjs`, type-checked as an
 * outside TypeScript project would, and its *Certify it* lines pasted (ports aside) expecting exit 0:
 * a strict PASS, restart included (certify's --start-command restarts the server on its data
 * directory). Also, statically: under 60 lines of glue, the durable worker with readiness and drain,
 * no token compared with ===, and every package the server imports named in its install line.
 *
 * How much of each line runs: every README's server is the same code (the test below ties it to
 * express's) up to `worker.start();`, and only that shared part changes with the integration mode;
 * what follows (the framework's app, its mount, readiness and drain) is the same in both modes. So
 * every README runs its data-sharing line whole (a superset of basic's checks but those basic alone
 * has, today `routes.basic-serves-no-data-sharing`) and its basic line with `--only` contract-tests'
 * `modeSmokeChecks('basic')`, the checks that take an order through to its webhooks plus those: the
 * server starts in basic mode behind that framework and serves it. Basic mode's market logic is
 * certified whole elsewhere: on the reference server from the built packages on PGlite (the root
 * README's certify line, scripts/test/readme-commands.test.ts) and in-process on hono
 * (contract-tests/test/suite), so a full basic run here proved nothing else and cost ~15–20
 * CPU-seconds per README (issue 36; express's was the last one cut).
 * The data-sharing runs here are the whole runs of express, koa, fastify and nestjs-express (the
 * NestJS server is on the Express platform): contract-tests runs only their smoke sets in-process
 * (`WHOLE_IN_ITS_README` in its test/support; the test at the end holds each entry to its README).
 * A README no entry names (hono's: contract-tests runs hono whole in both modes in-process, on the
 * same router and @hono/node-server) runs its data-sharing line with `--only` data-sharing's smoke
 * set and `restart.state-survives`: its server starts in that mode, serves an order through, and
 * keeps its state across a restart; a whole run proved nothing else (this file took 206 CPU-seconds
 * before, 186 after, on a slower 2-core machine; issue 36's notes).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modeSmokeChecks, RESTART_CHECK } from '@bnpl-kit/contract-tests';
import { WHOLE_IN_ITS_README } from '@bnpl-kit/contract-tests/test-support/adapter-contract-suite.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type PackedWorkspace,
  packedIn,
  projectFromInstallLines,
  REPO_ROOT,
} from '../src/outside-project.js';
import { typeCheckInProject } from '../src/outside-typecheck.js';
import { importedPackages, npmInstall, packageName, readmeLines } from '../src/readme-commands.js';
import { codeBlockUnder, exampleModule, glueLines, sharedServerPart } from '../src/readme-example.js';
import { runReadmeLine, withFreePorts } from '../src/run-readme-line.js';
import { runReport } from '../src/run-report.js';

const FRAMEWORKS = ['express', 'koa', 'hono', 'fastify', 'nestjs'] as const;
/** The README whose server the others share up to worker.start() (see the header). */
const REFERENCE_README = 'express';
/** The READMEs whose data-sharing line is an adapter's whole data-sharing run (see the header). */
const WHOLE_DATA_SHARING = new Set(Object.values(WHOLE_IN_ITS_README));

/**
 * What a README's certify line in `mode` runs: every check (undefined) when it is an adapter's whole
 * run; else an order through its webhooks and the mode's own checks, and in data-sharing (then the
 * README's only run with a restart) `restart.state-survives`.
 */
function checksOfLine(framework: string, mode: string): string[] | undefined {
  if (mode === 'basic') return modeSmokeChecks('basic');
  if (WHOLE_DATA_SHARING.has(`packages/${framework}/README.md`)) return undefined;
  return modeSmokeChecks('data-sharing', { restart: true });
}
const SERVER = '## A complete minimal server';
const CERTIFY = '## Certify it';
/** The Done-when's bound on what an integrator writes per framework. */
const MAX_GLUE_LINES = 60;
const PACKED = ['core', 'store', 'sandbox', 'cli', ...FRAMEWORKS]
  .map((p) => `packages/${p}`)
  .concat('contract-tests');

const projects: string[] = [];
let packed: PackedWorkspace;

const installLinesOf = (readme: string) =>
  [...readmeLines(readme, SERVER), ...readmeLines(readme, CERTIFY)]
    .map(npmInstall)
    .filter((line) => line !== undefined);
const certifyLinesOf = (readme: string) =>
  readmeLines(readme, CERTIFY).filter((line) => /^npx bnpl-kit certify /.test(line));

beforeAll(() => {
  packed = packedIn(PACKED, inject('tarballDir'));
});

afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

describe.each(FRAMEWORKS)('the @bnpl-kit/%s README', (framework) => {
  const readme = join(REPO_ROOT, 'packages', framework, 'README.md');
  const code = codeBlockUnder(readFileSync(readme, 'utf8'), SERVER);
  const module = exampleModule(readme);
  const installs = installLinesOf(readme);
  const certifyLines = certifyLinesOf(readme);

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

  it("names no integration mode after worker.start() (the framework's part is the same in both)", () => {
    const shared = sharedServerPart(code);
    const frameworkPart = code.slice(code.indexOf(shared) + shared.length);
    expect(frameworkPart).toMatch(/\S/);
    expect(frameworkPart).not.toMatch(/integrationMode|BNPL_INTEGRATION_MODE|data-sharing|'basic'/);
  });

  if (framework !== REFERENCE_README) {
    it(`shares everything up to worker.start() with the ${REFERENCE_README} README (all a mode changes)`, () => {
      const reference = join(REPO_ROOT, 'packages', REFERENCE_README, 'README.md');
      expect(sharedServerPart(code)).toBe(
        sharedServerPart(codeBlockUnder(readFileSync(reference, 'utf8'), SERVER)),
      );
    });
  }

  it('compares no token with === (constant time only)', () => {
    expect(module).not.toMatch(/===\s*[\w.?]*(token|Token)/);
  });

  it('names every package its server imports in its install line, and the CLI in its certify section', () => {
    const installed = new Set(installs.flatMap((line) => line.packages.map(packageName)));
    expect(importedPackages(code).filter((name) => !installed.has(name))).toEqual([]);
    expect(installs.at(-1)).toEqual({ dev: true, packages: ['@bnpl-kit/cli'] });
    // Both modes, each a complete strict run: the market started (and restarted) by certify.
    expect(certifyLines.map((line) => /--mode (\S+)/.exec(line)?.[1])).toEqual(['basic', 'data-sharing']);
    for (const line of certifyLines) expect(line).toMatch(/--start-command "node server\.mjs"/);
  });
});

// The frameworks side by side: each has its own project, ports and data directory, and a run
// mostly waits (on the market's service timeout, on deliveries).
describe('each adapter README, followed as written outside the repository', () => {
  it.concurrent.for(FRAMEWORKS)(
    '%s: installs, type-checks and passes its certify lines strictly',
    // Two npm installs and two certify runs on a loaded machine: only a hang takes this long.
    { timeout: 1_500_000 },
    async (framework, { expect }) => {
      const readme = join(REPO_ROOT, 'packages', framework, 'README.md');
      const code = codeBlockUnder(readFileSync(readme, 'utf8'), SERVER);
      const installs = installLinesOf(readme);
      const certifyLines = certifyLinesOf(readme);
      const project = await projectFromInstallLines(installs, packed);
      projects.push(project);
      // Saved as the README says: `server.mjs`, the block as it stands (plain JavaScript).
      writeFileSync(join(project, 'server.mjs'), code);
      expect(typeCheckInProject(project, code)).toEqual([]);
      for (const line of certifyLines) {
        const only = checksOfLine(framework, /--mode (\S+)/.exec(line)?.[1] ?? '');
        const pasted = await withFreePorts(line);
        const run = await runReadmeLine(only ? `${pasted} --only ${only.join(' ')}` : pasted, project);
        const tail = runReport(run);
        expect(run.status, tail).toBe(0);
        const passed = /^PASSED: (\d+) checks, \1 passed, 0 failed, 0 skipped in /m.exec(run.stdout);
        expect(passed, tail).not.toBeNull();
        expect(run.stderr, tail).not.toMatch(/did not exit cleanly/);
        if (only) expect(Number(passed?.[1]), tail).toBe(only.length);
        // Nothing declared lacking: the restart check ran, on the restarted server.
        if (!only || only.includes(RESTART_CHECK))
          expect(run.stderr, tail).toContain(`ok   ${RESTART_CHECK}`);
      }
    },
  );
});

describe("the adapters contract-tests leaves to these READMEs' data-sharing runs", () => {
  it.each(Object.entries(WHOLE_IN_ITS_README))(
    '%s: %s is run here, on that platform',
    (adapter, readmePath) => {
      // `<framework>` or `<framework>-<platform>`, as contract-tests' src/adapters.ts names them.
      const [framework, platform] = adapter.split('-') as [string, string | undefined];
      expect(readmePath).toBe(`packages/${framework}/README.md`);
      expect(FRAMEWORKS).toContain(framework);
      const readme = join(REPO_ROOT, readmePath);
      expect(certifyLinesOf(readme).some((line) => /--mode data-sharing\b/.test(line))).toBe(true);
      if (platform !== undefined) {
        expect(installLinesOf(readme).flatMap((line) => line.packages)).toContain(
          `@nestjs/platform-${platform}`,
        );
      }
    },
  );
});

describe('contract-tests/README.md', () => {
  it("gives the express README's strict basic command, with the HTML report", () => {
    const lines = readmeLines(join(REPO_ROOT, 'contract-tests/README.md'), '# @bnpl-kit/contract-tests');
    const express = join(REPO_ROOT, 'packages/express/README.md');
    expect(lines).toEqual([
      readmeLines(express, CERTIFY)[0],
      `${certifyLinesOf(express)[0]} --report certify-report.html`,
    ]);
  });
});

describe('the outside type check itself', () => {
  it('finds what TypeScript 5.9 without dom.iterable refuses: iterating a Headers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bnpl-kit-typecheck-'));
    projects.push(dir);
    const problems = typeCheckInProject(dir, 'export const h = Object.fromEntries(new Headers());\n');
    expect(problems).toEqual([expect.stringMatching(/^line 1 TS2769 /)]);
    expect(
      typeCheckInProject(dir, 'new Headers().forEach((value, name) => console.log(name, value));\n'),
    ).toEqual([]);
  });
});
