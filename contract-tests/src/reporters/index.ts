/** The report formats, and which one a report file name asks for. */
import type { ContractReport } from '../types.js';
import { formatHtmlReport } from './html.js';
import { formatJunitReport } from './junit.js';
import { formatTextReport } from './text.js';

export type ReportFormat = 'text' | 'json' | 'junit' | 'html';

export function formatJsonReport(report: ContractReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** `.xml` → JUnit, `.json` → JSON, `.txt` → text, `.html` → HTML; anything else is undefined. */
export function reportFormatFor(fileName: string): ReportFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.xml')) return 'junit';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.txt')) return 'text';
  if (lower.endsWith('.html') || lower.endsWith('.htm')) return 'html';
  return undefined;
}

export function formatReport(report: ContractReport, format: ReportFormat): string {
  if (format === 'junit') return formatJunitReport(report);
  if (format === 'json') return formatJsonReport(report);
  if (format === 'html') return formatHtmlReport(report);
  return formatTextReport(report);
}

export {
  escapeHtml,
  formatHtmlReport,
  type HtmlReportOptions,
  PROTOCOL_DOC_URL,
  REPORT_CSS,
  renderReportSections,
} from './html.js';
export { groupBySpec, type TextReportOptions } from './text.js';
export { formatJunitReport, formatTextReport };
