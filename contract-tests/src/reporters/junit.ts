/** JUnit XML (one `<testsuite>` per specification section), for CI systems that show test reports. */
import { create } from 'xmlbuilder2';
import type { ContractReport } from '../types.js';
import { groupBySpec } from './text.js';

const secs = (ms: number) => (ms / 1000).toFixed(3);

export function formatJunitReport(report: ContractReport): string {
  const { total, failed, skipped, notRun } = report.summary;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: `bnpl-kit contract suite (${report.mode}) ${report.marketUrl}`,
    tests: total,
    failures: failed,
    errors: 0,
    skipped: skipped + notRun,
    time: secs(report.durationMs),
  });
  for (const [spec, results] of groupBySpec(report.results)) {
    const suite = root.ele('testsuite', {
      name: spec,
      tests: results.length,
      failures: results.filter((r) => r.status === 'fail').length,
      errors: 0,
      skipped: results.filter((r) => r.status === 'skip' || r.status === 'not-run').length,
      time: secs(results.reduce((sum, r) => sum + r.durationMs, 0)),
      timestamp: report.startedAt,
    });
    for (const r of results) {
      const testcase = suite.ele('testcase', {
        classname: `bnpl-kit.${report.mode}.${r.id.split('.')[0]}`,
        name: `${r.id}: ${r.title}`,
        time: secs(r.durationMs),
      });
      const message = r.message ?? '';
      if (r.status === 'fail')
        testcase.ele('failure', { message: message.split('\n')[0] ?? '' }).txt(message);
      if (r.status === 'skip' || r.status === 'not-run') testcase.ele('skipped', { message });
    }
  }
  return root.end({ prettyPrint: true });
}
