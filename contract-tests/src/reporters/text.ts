/**
 * The readable report: checks grouped by the part of the specification they enforce, each failure
 * with what was expected, what came back and what is broken, skips with their reason.
 */
import pc from 'picocolors';
import type { CheckResult, ContractReport } from '../types.js';

export interface TextReportOptions {
  /** ANSI colours; default off (the CLI turns them on for a terminal). */
  color?: boolean;
}

/** Spec sections in a natural order: WIRE §1 … §8, then the interface specification's sections. */
export function groupBySpec(results: readonly CheckResult[]): [spec: string, results: CheckResult[]][] {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) groups.set(result.spec, [...(groups.get(result.spec) ?? []), result]);
  const rank = (spec: string) => (spec.startsWith('WIRE') ? 0 : 1);
  return [...groups.entries()].sort(
    ([a], [b]) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }),
  );
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function indent(text: string, spaces: number): string {
  return text
    .split('\n')
    .map((line) => `${' '.repeat(spaces)}${line}`)
    .join('\n');
}

/** What the market must expose for a skipped check to run, from the skip reasons (one line each). */
function missingCapabilities(results: readonly CheckResult[]): string[] {
  return [...new Set(results.filter((r) => r.status === 'skip' && r.message).map((r) => r.message!))];
}

export function formatTextReport(report: ContractReport, options: TextReportOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const mark = {
    pass: c.green('✓'),
    fail: c.red('✗'),
    skip: c.yellow('-'),
    'not-run': c.dim('○'),
    'not-exercised': c.yellow('~'),
  };
  const lines = [c.bold(`bnpl-kit contract suite: ${report.marketUrl} (${report.mode} mode)`), ''];
  for (const [spec, results] of groupBySpec(report.results)) {
    lines.push(c.bold(spec));
    for (const r of results) {
      lines.push(`  ${mark[r.status]} ${r.id} ${c.dim(`${r.title} (${seconds(r.durationMs)})`)}`);
      if (r.status === 'fail' && r.message) lines.push(c.red(indent(r.message, 6)));
      if (r.status === 'skip' && r.message) lines.push(c.yellow(indent(`skipped: ${r.message}`, 6)));
      if (r.status === 'not-run' && r.message) lines.push(c.dim(indent(r.message, 6)));
      if (r.status === 'not-exercised' && r.message) lines.push(c.yellow(indent(r.message, 6)));
    }
    lines.push('');
  }
  const advice = [...new Set(report.results.flatMap((r) => r.advisories ?? []))];
  if (advice.length > 0) {
    lines.push(c.bold('Advisory (not required):'));
    for (const note of advice) lines.push(`  - ${note}`);
    lines.push('');
  }
  const { total, passed, failed, skipped, notRun, notExercised } = report.summary;
  const verdict = !report.ok
    ? c.red('FAILED')
    : report.complete
      ? c.green('PASSED')
      : c.yellow('PASSED (skips allowed)');
  lines.push(
    `${verdict}: ${total} checks, ${passed} passed, ${failed} failed, ${skipped} skipped${notRun > 0 ? `, ${notRun} not run` : ''}${notExercised > 0 ? `, ${notExercised} not exercised` : ''} in ${seconds(report.durationMs)}`,
  );
  lines.push(
    `Generated cases: seed ${report.seed} (replay with --seed ${report.seed} or BNPL_CERTIFY_SEED=${report.seed})`,
  );
  const undeclared = report.results.filter((r) => r.status === 'not-exercised' && !r.lacks?.declared);
  if (undeclared.length > 0) {
    lines.push(
      `Not exercised (fails a strict run): ${undeclared.map((r) => r.id).join(', ')}. A market that lacks the capability on purpose declares it: ${[...new Set(undeclared.map((r) => `--lacks ${r.lacks?.capability}`))].join(' ')}`,
    );
  }
  if (failed > 0) {
    lines.push(
      `Failed: ${report.results
        .filter((r) => r.status === 'fail')
        .map((r) => r.id)
        .join(', ')}`,
    );
  }
  if (!report.complete) {
    lines.push(
      `INCOMPLETE: ${skipped + notRun} check(s) did not run${report.allowSkips ? ' (allowed by --allow-skips)' : ''}.`,
    );
    const missing = missingCapabilities(report.results);
    if (missing.length > 0) {
      lines.push('For every check to run, the market must expose:');
      for (const m of missing) lines.push(`  - ${m}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
