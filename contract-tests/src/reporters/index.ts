/** The three report formats, and which one a report file name asks for. */
import type { ContractReport } from '../types.js';
import { formatJunitReport } from './junit.js';
import { formatTextReport } from './text.js';

export type ReportFormat = 'text' | 'json' | 'junit';

export function formatJsonReport(report: ContractReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** `.xml` → JUnit, `.json` → JSON, `.txt` → text; anything else is undefined. */
export function reportFormatFor(fileName: string): ReportFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.xml')) return 'junit';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.txt')) return 'text';
  return undefined;
}

export function formatReport(report: ContractReport, format: ReportFormat): string {
  if (format === 'junit') return formatJunitReport(report);
  if (format === 'json') return formatJsonReport(report);
  return formatTextReport(report);
}

export { groupBySpec, type TextReportOptions } from './text.js';
export { formatJunitReport, formatTextReport };
