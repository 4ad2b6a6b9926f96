/**
 * Writes docs/conformance-matrix.md from docs/protocol.md's rule IDs and the checks' `rules`
 * (`pnpm conformance-matrix`). Refuses to write an incomplete matrix: every problem is printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { contractChecks } from '../src/checks/index.js';
import { buildMatrix, formatMatrix, matrixProblems } from '../src/rules/matrix.js';
import { NOT_OBSERVABLE } from '../src/rules/not-observable.js';
import { formatProtocolIndex, parseProtocolIndex } from '../src/rules/protocol-index.js';
import { parseProtocolRules } from '../src/rules/protocol-rules.js';

const root = new URL('../../', import.meta.url);
const protocol = readFileSync(new URL('docs/protocol.md', root), 'utf8');
const rules = parseProtocolRules(protocol);
const problems = matrixProblems(rules, contractChecks, NOT_OBSERVABLE);
if (problems.length > 0) {
  console.error(`The conformance matrix is incomplete:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const target = new URL('docs/conformance-matrix.md', root);
writeFileSync(target, formatMatrix(buildMatrix(rules, contractChecks, NOT_OBSERVABLE), contractChecks));
// The reports' links into the document (reporters/html.ts).
writeFileSync(
  new URL('contract-tests/src/reporters/protocol-index.generated.json', root),
  formatProtocolIndex(parseProtocolIndex(protocol)),
);
console.log(
  `Wrote docs/conformance-matrix.md and contract-tests/src/reporters/protocol-index.generated.json: ${rules.length} rules, ${contractChecks.length} checks.`,
);
