/**
 * The closing lines of the test command: which packages failed (from turbo's run summary, so a
 * package is only ever reported for its own exit code), under each the tests that failed with the
 * first line of their error, and the tests counted from vitest's "Tests  N passed | M failed" line
 * of each package. The failures are repeated here because a CI log is often read from its tail,
 * and vitest prints them thousands of lines earlier.
 */

/** At most this many failed tests are repeated per package; the rest are counted. */
const FAILURES_SHOWN = 8;
/** How far below a `FAIL` line vitest's error line may be (a blank line or a diff header between). */
const ERROR_LOOKAHEAD = 6;
/** Long lines are cut: a closing summary, not the report. */
const LINE_LIMIT = 240;

const cut = (text) => (text.length > LINE_LIMIT ? `${text.slice(0, LINE_LIMIT - 1)}…` : text);

/**
 * vitest's "Failed Tests" section: ` FAIL  file > suite > test`, then the error's first line.
 * @param {string[]} lines turbo's output, colours removed
 * @returns {Map<string, string[]>} per package, one entry per failed test
 */
function failedTests(lines) {
  /** @type {Map<string, string[]>} */
  const failures = new Map();
  lines.forEach((line, index) => {
    const match = /^(\S+):test:\s+FAIL\s+(.*\S)\s*$/.exec(line);
    if (!match) return;
    const [, name = '', test = ''] = match;
    const prefix = `${name}:test:`;
    const error = lines
      .slice(index + 1, index + 1 + ERROR_LOOKAHEAD)
      .filter((next) => next.startsWith(prefix))
      .map((next) => next.slice(prefix.length).trim())
      .find((next) => next !== '' && !/^FAIL\s/.test(next) && !/^⎯+/.test(next));
    const list = failures.get(name) ?? [];
    list.push(error ? `${cut(test)}\n      ${cut(error)}` : cut(test));
    failures.set(name, list);
  });
  return failures;
}

// Colour codes, built from the code point: a literal ESC in a regex reads as a typo.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** @param {string} text */
export const stripAnsi = (text) => text.replace(ANSI, '');

/**
 * @param {string} output turbo's output, package lines prefixed `<package>:test: `
 * @param {{ tasks?: { package: string, taskId: string, execution?: { exitCode?: number } }[] } | undefined} run
 *   turbo's `--summarize` file
 */
export function summarize(output, run) {
  /** @type {Map<string, { passed: number, failed: number, skipped: number }>} */
  const counts = new Map();
  const lines = stripAnsi(output).split('\n');
  const failures = failedTests(lines);
  for (const line of lines) {
    const match = /^(\S+):test:\s+Tests\s+(.*?)\s*\(\d+\)\s*$/.exec(line);
    if (!match) continue;
    const [, name = '', part = ''] = match;
    const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(part)?.[1] ?? 0);
    counts.set(name, { passed: count('passed'), failed: count('failed'), skipped: count('skipped') });
  }
  const tasks = (run?.tasks ?? []).filter((task) => task.taskId.endsWith('#test'));
  // Without turbo's summary (it could not be read, or a CI log is summed afterwards), a package
  // failed when its vitest line counts a failed test: never "every package passed" over failures.
  const failedPackages = (
    run
      ? tasks.filter((task) => (task.execution?.exitCode ?? 0) !== 0).map((task) => task.package)
      : [...counts].filter(([, count]) => count.failed > 0).map(([name]) => name)
  ).sort();
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const count of counts.values()) {
    total.passed += count.passed;
    total.failed += count.failed;
    total.skipped += count.skipped;
  }
  const summary = failedPackages.flatMap((name) => {
    const count = counts.get(name);
    const tests = failures.get(name) ?? [];
    const more =
      tests.length > FAILURES_SHOWN ? [`    … and ${tests.length - FAILURES_SHOWN} more above`] : [];
    return [
      `test: FAILED ${name}${count ? ` (${count.failed} failed, ${count.passed} passed)` : ' (see its output above)'}`,
      ...tests.slice(0, FAILURES_SHOWN).map((test) => `    ${test}`),
      ...more,
    ];
  });
  const packages = run ? tasks.length : counts.size;
  summary.push(
    `tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}` +
      ` in ${packages} packages; ${failedPackages.length === 0 ? (packages > 0 ? 'every package passed' : 'nothing ran') : `${failedPackages.length} failed`}`,
  );
  return summary.join('\n');
}

/** How many packages the CPU line names by their cost. */
const COSTLIEST_SHOWN = 6;

/**
 * Where the whole command's CPU went (measure-cpu.mjs per package): on two cores it is CPU-bound,
 * so this, not any package's wall time, says what made it long (issue 36). Undefined when nothing
 * was measured (no /proc).
 * @param {{ execution: { startTime: number, endTime: number }, buildCpuSeconds?: number,
 *   tasks: { package: string, cpuSeconds?: number }[] }} run the test command's run summary
 * @param {number} [cores] the cores the command had
 * @returns {string | undefined}
 */
export function cpuLine(run, cores) {
  const measured = run.tasks.filter((task) => task.cpuSeconds !== undefined);
  if (measured.length === 0) return undefined;
  const suites = measured.reduce((sum, task) => sum + (task.cpuSeconds ?? 0), 0);
  const total = suites + (run.buildCpuSeconds ?? 0);
  const wall = (run.execution.endTime - run.execution.startTime) / 1000;
  const busy =
    cores && wall > 0
      ? `, ${Math.round((100 * suites) / (wall * cores))} % of ${cores} cores over the suites' ${Math.round(wall)} s`
      : '';
  const costliest = [...measured]
    .sort((a, b) => (b.cpuSeconds ?? 0) - (a.cpuSeconds ?? 0))
    .slice(0, COSTLIEST_SHOWN)
    .map((task) => `${task.package.replace(/^@bnpl-kit\//, '')} ${Math.round(task.cpuSeconds ?? 0)}`)
    .join(', ');
  // A cached build step takes a fraction of a second: one decimal there, not a misleading 0.
  const buildSeconds = run.buildCpuSeconds;
  const build =
    buildSeconds !== undefined ? ` (the build step ${buildSeconds.toFixed(buildSeconds < 10 ? 1 : 0)})` : '';
  return `test: CPU seconds ${Math.round(total)}${build}${busy}; the costliest suites: ${costliest}`;
}
