/**
 * The closing lines of the test command: which packages failed (from turbo's run summary, so a
 * package is only ever reported for its own exit code) and the tests counted from vitest's
 * "Tests  N passed | M failed" line of each package.
 */

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
  for (const line of stripAnsi(output).split('\n')) {
    const match = /^(\S+):test:\s+Tests\s+(.*?)\s*\(\d+\)\s*$/.exec(line);
    if (!match) continue;
    const [, name = '', part = ''] = match;
    const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(part)?.[1] ?? 0);
    counts.set(name, { passed: count('passed'), failed: count('failed'), skipped: count('skipped') });
  }
  const tasks = (run?.tasks ?? []).filter((task) => task.taskId.endsWith('#test'));
  const failedPackages = tasks
    .filter((task) => (task.execution?.exitCode ?? 0) !== 0)
    .map((task) => task.package)
    .sort();
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const count of counts.values()) {
    total.passed += count.passed;
    total.failed += count.failed;
    total.skipped += count.skipped;
  }
  const lines = failedPackages.map((name) => {
    const count = counts.get(name);
    return `test: FAILED ${name}${count ? ` (${count.failed} failed, ${count.passed} passed)` : ' (see its output above)'}`;
  });
  const packages = run ? tasks.length : counts.size;
  lines.push(
    `tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}` +
      ` in ${packages} packages; ${failedPackages.length === 0 ? (packages > 0 ? 'every package passed' : 'nothing ran') : `${failedPackages.length} failed`}`,
  );
  return lines.join('\n');
}
