/** JUnit XML (one `<testsuite>` per specification section), for CI systems that show test reports. */
import type { CheckResult, ContractReport } from '../types.js';
import { groupBySpec } from './text.js';
import { type XmlElement, xmlDocument } from './xml.js';

const secs = (ms: number) => (ms / 1000).toFixed(3);

function testcase(report: ContractReport, r: CheckResult): XmlElement {
  const message = r.message ?? '';
  const children: XmlElement[] = [];
  if (r.status === 'fail') {
    children.push({ name: 'failure', attributes: { message: message.split('\n')[0] ?? '' }, text: message });
  }
  if (r.status === 'skip' || r.status === 'not-run' || r.status === 'not-exercised')
    children.push({ name: 'skipped', attributes: { message } });
  return {
    name: 'testcase',
    attributes: {
      classname: `bnpl-kit.${report.mode}.${r.id.split('.')[0]}`,
      name: `${r.id}: ${r.title}`,
      time: secs(r.durationMs),
    },
    children,
  };
}

export function formatJunitReport(report: ContractReport): string {
  const { total, failed, skipped, notRun, notExercised } = report.summary;
  const suites = [...groupBySpec(report.results)].map(
    ([spec, results]): XmlElement => ({
      name: 'testsuite',
      attributes: {
        name: spec,
        tests: results.length,
        failures: results.filter((r) => r.status === 'fail').length,
        errors: 0,
        skipped: results.filter(
          (r) => r.status === 'skip' || r.status === 'not-run' || r.status === 'not-exercised',
        ).length,
        time: secs(results.reduce((sum, r) => sum + r.durationMs, 0)),
        timestamp: report.startedAt,
      },
      children: results.map((r) => testcase(report, r)),
    }),
  );
  return xmlDocument({
    name: 'testsuites',
    attributes: {
      name: `bnpl-kit contract suite (${report.mode}) ${report.marketUrl}`,
      tests: total,
      failures: failed,
      errors: 0,
      skipped: skipped + notRun + notExercised,
      time: secs(report.durationMs),
    },
    children: suites,
  });
}
