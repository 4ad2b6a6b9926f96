/**
 * After `stryker run` (pnpm certify:mutation): prints the mutation score and every surviving mutant
 * (file:line, mutator, replacement) from Stryker's JSON report, and writes mutation/result.json, the
 * committed record the README's certify section and mutation/survivors.md are tested against
 * (test/mutation-result.test.ts). Exits 1 when a mutant survived that survivors.md does not classify.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const here = new URL('.', import.meta.url);
const report = JSON.parse(readFileSync(new URL('reports/mutation.json', here), 'utf8'));
const root = new URL('..', here).pathname;

const mutants = Object.entries(report.files).flatMap(([file, { mutants }]) =>
  mutants.map((m) => ({ ...m, file: relative(root, file.startsWith('/') ? file : `${root}${file}`) })),
);
const count = (...statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
const detected = count('Killed', 'Timeout');
const survived = count('Survived');
const noCoverage = count('NoCoverage');
const percent = (n, d) => (d === 0 ? 100 : Math.round((n / d) * 1000) / 10);
const where = (m) => `${m.file}:${m.location.start.line}`;
const survivors = mutants
  .filter((m) => m.status === 'Survived')
  .map((m) => ({
    at: where(m),
    mutator: m.mutatorName,
    replacement: (m.replacement ?? '').replace(/\s+/g, ' '),
  }))
  .sort((a, b) => a.at.localeCompare(b.at, 'en', { numeric: true }));
const result = {
  files: [...new Set(mutants.map((m) => m.file))].sort(),
  // The mutants the score is over (Stryker's "valid" ones: not ignored, no compile or runtime error).
  mutants: detected + survived + noCoverage,
  generated: mutants.length,
  killed: count('Killed'),
  timedOut: count('Timeout'),
  survived,
  noCoverage,
  ignored: count('Ignored'),
  errors: count('CompileError', 'RuntimeError'),
  // Stryker's definitions: detected / (detected + survived + no coverage), and over covered code only.
  score: percent(detected, detected + survived + noCoverage),
  scoreCovered: percent(detected, detected + survived),
  survivors,
};
writeFileSync(new URL('result.json', here), `${JSON.stringify(result, null, 2)}\n`);

console.log(
  `\nMutation score ${result.score}% (${detected} of ${detected + survived + noCoverage} detected; ` +
    `${result.scoreCovered}% of the ${detected + survived} mutants a mode runs). ` +
    `${noCoverage} in code only a defect runs, ${result.ignored} defect switches not mutated.`,
);
console.log(survivors.length === 0 ? 'No mutant survived.' : `Survivors (${survivors.length}):`);
for (const s of survivors) console.log(`  ${s.at}  ${s.mutator}  → ${s.replacement}`);

const classified = readFileSync(new URL('survivors.md', here), 'utf8');
const unexplained = survivors.filter((s) => !classified.includes(`${s.at} ${s.mutator}`));
if (unexplained.length > 0) {
  console.log(
    `\nNot classified in mutation/survivors.md (a missing check, or an equivalent mutant to explain):`,
  );
  for (const s of unexplained) console.log(`  ${s.at} ${s.mutator}`);
  process.exitCode = 1;
}
