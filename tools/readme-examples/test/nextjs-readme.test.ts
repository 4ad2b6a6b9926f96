/**
 * The Next.js example's README, followed as written by someone outside the repository: a project
 * made by its `npm install` lines (the kit's packages from their packed tarballs, Next and React as
 * npm installs them today), every file the README shows saved under the path its first line names,
 * the `next.config.mjs` its prose gives, and its *Certify it* lines pasted (ports aside): `next
 * build`, then a strict PASS in basic mode (the example's), restart included (certify's --start-command runs
 * `next start` and restarts it on its data directory).
 *
 * How much of the certify line runs: `--only` contract-tests' `modeSmokeChecks('basic')` (an order
 * through to its webhooks, and basic's own checks) and `restart.state-survives`: this project's
 * store, worker, drain and restart. The files this README shows are the app's own, byte for byte
 * (tools/repo-checks' readme-code test), and the app's contract suite certifies data-sharing whole
 * through its route under Next's production server (apps/nextjs-example/test), which reaches every
 * part of the stack a basic run would; basic mode's market logic is certified whole on the
 * reference server and in-process on hono. So a whole basic run here proved nothing else (its cost
 * is small beside the installs and `next build`: the file took 52 and 57 CPU-seconds in two runs of
 * the test command before and after, within their noise; issue 36's notes).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { modeSmokeChecks, RESTART_CHECK } from '@bnpl-kit/contract-tests';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type PackedWorkspace,
  packedIn,
  projectFromInstallLines,
  REPO_ROOT,
} from '../src/outside-project.js';
import { npmInstall, readmeLines } from '../src/readme-commands.js';
import { runReadmeLine, withFreePorts } from '../src/run-readme-line.js';
import { runReport } from '../src/run-report.js';

const README = join(REPO_ROOT, 'apps/nextjs-example/README.md');
const BUILD = '## Build and start';
const CERTIFY = '## Certify it';
/** What the basic line runs (see the header): the server serves basic mode and keeps its state. */
const CHECKS = modeSmokeChecks('basic', { restart: true });
const PACKED = ['packages/core', 'packages/store', 'packages/sandbox', 'packages/cli', 'contract-tests'];

/** The README's files: each ```ts block whose first line is `// <path>` (the Pages Router pitfall's aside). */
function readmeFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, body] of markdown.matchAll(/```ts\n([\s\S]*?)\n```/g)) {
    const path = /^\/\/ (\S+\.tsx?)\n/.exec(body!)?.[1];
    if (path !== undefined && !path.startsWith('pages/')) files.set(path, `${body}\n`);
  }
  return files;
}

/** The `next.config.mjs` the README's prose gives in one code span. */
function readmeNextConfig(markdown: string): string {
  const config = /`(export default \{[^`]*\};)`/.exec(markdown)?.[1];
  if (config === undefined) throw new Error('The README gives no next.config.mjs');
  return `${config}\n`;
}

const markdown = readFileSync(README, 'utf8');
let packed: PackedWorkspace;
let project: string | undefined;

beforeAll(() => {
  packed = packedIn(PACKED, inject('tarballDir'));
});

// Next's node_modules is large: removing it on a loaded machine took over 4 minutes.
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
}, 900_000);

describe('the Next.js example README', () => {
  it('shows every file of the app the route needs, and the config', () => {
    expect([...readmeFiles(markdown).keys()].sort()).toEqual([
      'app/bnpl/[...path]/route.ts',
      'app/readyz/route.ts',
      'instrumentation.ts',
      'lib/market.ts',
      'lib/process-wide.ts',
      'lib/requests.ts',
    ]);
    expect(readmeNextConfig(markdown)).toMatch(/serverExternalPackages/);
  });

  it('followed as written outside the repository: builds and certifies strictly in basic mode, its mode', {
    // Two npm installs, a next build and a certify run with a restart on a loaded machine.
    timeout: 1_500_000,
  }, async () => {
    const lines = [...readmeLines(README, BUILD), ...readmeLines(README, CERTIFY)];
    const installs = lines.map(npmInstall).filter((line) => line !== undefined);
    project = await projectFromInstallLines(installs, packed);
    for (const [path, code] of readmeFiles(markdown)) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), code);
    }
    writeFileSync(join(project, 'next.config.mjs'), readmeNextConfig(markdown));
    const steps = readmeLines(README, CERTIFY).filter((line) => npmInstall(line) === undefined);
    expect(steps[0]).toBe('npx next build');
    expect(steps.slice(1).map((line) => /--mode (\S+)/.exec(line)?.[1])).toEqual(['basic']);
    for (const line of steps) {
      const certify = /bnpl-kit certify/.test(line);
      const pasted = await withFreePorts(line);
      const run = await runReadmeLine(certify ? `${pasted} --only ${CHECKS.join(' ')}` : pasted, project);
      const tail = runReport(run);
      expect(run.status, tail).toBe(0);
      if (!certify) continue;
      expect(run.stdout, tail).toMatch(
        new RegExp(`^PASSED: ${CHECKS.length} checks, ${CHECKS.length} passed, 0 failed, 0 skipped in `, 'm'),
      );
      expect(run.stderr, tail).toContain(`ok   ${RESTART_CHECK}`);
      expect(run.stderr, tail).not.toMatch(/did not exit cleanly/);
    }
  });
});
