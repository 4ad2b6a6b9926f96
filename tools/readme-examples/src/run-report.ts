/**
 * What a failed README line's assertion says: the output's tails first and the failing checks
 * last. CI keeps only the last lines of a long log, and a certify run's failure details sit far up
 * in its report, above the passing checks and the server's log: put first, they were cut off (a
 * strict run's `restart.state-survives` failed in CI with nothing left to say why).
 */
import type { LineRun } from './run-readme-line.js';

export function runReport(run: LineRun): string {
  return [
    run.line,
    '--- stderr (tail) ---',
    run.stderr.slice(-6000),
    '--- stdout (tail) ---',
    run.stdout.slice(-4000),
    '--- failing checks ---',
    failureBlocks(run.stdout) || '(none in the report)',
    `--- exit ${run.status} ---`,
  ].join('\n');
}

/** The text report's failing checks with their details (a long run's tail would cut them off). */
export function failureBlocks(stdout: string): string {
  const blocks: string[] = [];
  let open = false;
  for (const line of stdout.split('\n')) {
    if (/^\s{2}[✗○!]/.test(line)) open = /^\s{2}✗/.test(line);
    else if (!/^\s{4,}/.test(line)) open = false;
    if (open) blocks.push(line);
  }
  return blocks.join('\n').slice(0, 8000);
}
