/**
 * The HTML report: one self-contained page (inline CSS, no script, nothing fetched) to open in a
 * browser or attach to a ticket. The verdict and the counts of each mode first, then the checks
 * grouped by protocol section with their rules linked into docs/protocol.md, and for every check
 * that did not pass what it sent and what came back (secrets masked, exchange-record.ts), expected
 * against got, and what to do about it. `renderReportSections` is the body alone, for a page that
 * has its own frame (the sandbox console's certification page).
 */
import { ERROR_DOCS_URL } from '@bnpl-kit/core/wire';
import type { ExchangeRecord } from '../exchange-record.js';
import { type CheckResult, type ContractReport, MARKET_CAPABILITIES } from '../types.js';
import PROTOCOL_INDEX from './protocol-index.generated.json' with { type: 'json' };
import { groupBySpec } from './text.js';

/** docs/protocol.md next to the error catalogue the problem documents already link to. */
export const PROTOCOL_DOC_URL = ERROR_DOCS_URL.replace(/errors\.md$/, 'protocol.md');

export interface HtmlReportOptions {
  /** Where docs/protocol.md is read; default the repository's copy on GitHub. */
  protocolUrl?: string;
  /** Findings of the run that belong to no check (e.g. a callback URL the market does not serve). */
  warnings?: readonly string[];
  /** The command that ran, shown for replaying. */
  command?: string;
}

const STATUS_LABEL: Record<CheckResult['status'], string> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
  'not-run': 'not run',
  'not-exercised': 'not exercised',
};

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const h = escapeHtml;

function sectionOf(number: string) {
  return PROTOCOL_INDEX.sections.find((s) => s.number === number);
}

function sectionLink(number: string, base: string): string {
  const section = sectionOf(number);
  if (!section) return h(number);
  return `<a href="${h(`${base}#${section.anchor}`)}" title="${h(section.title)}">${h(number)}</a>`;
}

/** `WIRE §3, §5` with each section linked; other citations (`spec: Authentication`) as text. */
function specHtml(spec: string, base: string): string {
  if (!spec.startsWith('WIRE')) return h(spec);
  return `WIRE ${spec
    .slice(4)
    .split(',')
    .map((part) => sectionLink(part.trim(), base))
    .join(', ')}`;
}

function ruleOf(id: string): { section: string; text: string } | undefined {
  return (PROTOCOL_INDEX.rules as Record<string, { section: string; text: string }>)[id];
}

function ruleLink(id: string, base: string): string {
  const rule = ruleOf(id);
  const section = rule && sectionOf(rule.section);
  const href = section ? `${base}#${section.anchor}` : base;
  return `<a class="rule" href="${h(href)}"${rule ? ` title="${h(`${rule.section}: ${rule.text}`)}"` : ''}>${h(id)}</a>`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function verdictOf(report: ContractReport): 'PASSED' | 'PASSED (skips allowed)' | 'FAILED' {
  return !report.ok ? 'FAILED' : report.complete ? 'PASSED' : 'PASSED (skips allowed)';
}

function headersHtml(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${h(name)}: ${h(value)}`)
    .join('\n');
}

function exchangeHtml(exchange: ExchangeRecord, index: number, count: number): string {
  const { request, response } = exchange;
  const summary = `${request.method} ${request.url} → ${response.status}`;
  return `<details class="exchange"${index === count - 1 ? ' open' : ''}>
<summary><span class="n">${index + 1}/${count}</span> <code>${h(summary)}</code> <span class="muted">${exchange.durationMs} ms</span></summary>
<div class="pair">
<div><h5>Request</h5><pre class="http">${h(`${request.method} ${request.url}`)}
${headersHtml(request.headers)}${request.body === undefined ? '' : `\n\n${h(request.body)}`}</pre></div>
<div><h5>Answer</h5><pre class="http">${h(`${response.status}`)}
${headersHtml(response.headers)}${response.body === '' ? '\n\n(empty body)' : `\n\n${h(response.body)}`}</pre></div>
</div>
</details>`;
}

/** What to do about a check that did not pass, from its verdict and the rules it exercises. */
function adviceHtml(result: CheckResult, report: ContractReport, base: string): string {
  const items: string[] = [];
  if (result.status === 'fail') {
    const rules = result.rules ?? [];
    if (rules.length > 0)
      items.push(
        `Make the market follow ${rules.length === 1 ? 'the rule' : 'the rules'} this check exercises:<ul>${rules
          .map((id) => `<li>${ruleLink(id, base)} ${h(ruleOf(id)?.text ?? '')}</li>`)
          .join('')}</ul>`,
      );
    items.push(
      `Rerun this check alone with the same generated cases: <code>--only ${h(result.id)} --seed ${report.seed}</code>`,
    );
  }
  if (result.status === 'not-exercised' && result.lacks) {
    const { capability, declared } = result.lacks;
    const what = MARKET_CAPABILITIES[capability] ?? capability;
    items.push(
      declared
        ? `The market declares it lacks <code>${h(capability)}</code> (${h(what)}): nothing was proven here.`
        : `Give certify what it takes (${h(what)}), or declare that the market lacks it on purpose: <code>--lacks ${h(capability)}</code>.`,
    );
  }
  if (result.status === 'skip' && result.message)
    items.push(`For this check to run, the market must expose: ${h(result.message)}`);
  if (result.status === 'not-run' && result.needs)
    items.push(
      `Fix <a href="#${h(`${report.mode}:${result.needs}`)}">${h(result.needs)}</a> first: this check needs what it certifies.`,
    );
  for (const note of result.advisories ?? []) items.push(`Advice: ${h(note)}`);
  return items.length > 0
    ? `<h4>What to do</h4><ul class="advice">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`
    : '';
}

function violationHtml(result: CheckResult, base: string): string {
  const v = result.violation;
  if (v)
    return `<dl class="violation"><dt>Expected</dt><dd>${h(v.expected)}</dd><dt>Got</dt><dd><pre>${h(v.actual)}</pre></dd><dt>Broken</dt><dd>${specHtml(v.spec, base)}</dd></dl>${
      // The message may carry more than the violation: the service's refusals meanwhile.
      result.message?.includes('The service refused')
        ? `<pre class="message">${h(result.message.slice(result.message.indexOf('The service refused')))}</pre>`
        : ''
    }`;
  return result.message ? `<pre class="message">${h(result.message)}</pre>` : '';
}

function checkHtml(result: CheckResult, report: ContractReport, base: string): string {
  const rules = (result.rules ?? []).map((id) => ruleLink(id, base)).join(' ');
  const head = `<span class="badge ${result.status}">${STATUS_LABEL[result.status]}</span> <code class="id">${h(result.id)}</code> <span class="title">${h(result.title)}</span> <span class="rules">${rules}</span> <span class="muted">${seconds(result.durationMs)}</span>`;
  const anchor = h(`${report.mode}:${result.id}`);
  const attrs = `id="${anchor}" class="check ${result.status}" data-check-id="${h(result.id)}" data-status="${result.status}"`;
  if (result.status === 'pass' && !(result.advisories?.length ?? 0))
    return `<div ${attrs}><div class="row">${head}</div></div>`;
  const exchanges = result.exchanges ?? [];
  const body = [
    violationHtml(result, base),
    adviceHtml(result, report, base),
    exchanges.length > 0
      ? `<h4>Exchanges (${exchanges.length}${exchanges.length >= 25 ? ', the last ones' : ''}; secrets masked)</h4>${exchanges
          .map((e, i) => exchangeHtml(e, i, exchanges.length))
          .join('\n')}`
      : result.status === 'fail' || result.status === 'not-exercised'
        ? '<p class="muted">No HTTP exchange with the market was recorded.</p>'
        : '',
  ].join('\n');
  return `<details ${attrs}><summary class="row">${head}</summary><div class="detail">${body}</div></details>`;
}

function countsRow(report: ContractReport): string {
  const s = report.summary;
  const verdict = verdictOf(report);
  return `<tr data-mode="${h(report.mode)}"><th scope="row"><a href="#mode-${h(report.mode)}">${h(report.mode)}</a></th><td class="verdict ${report.ok ? 'ok' : 'bad'}">${verdict}</td><td>${s.total}</td><td>${s.passed}</td><td>${s.failed}</td><td>${s.skipped}</td><td>${s.notRun}</td><td>${s.notExercised}</td><td>${seconds(report.durationMs)}</td></tr>`;
}

function modeHtml(report: ContractReport, base: string): string {
  const groups = groupBySpec(report.results).map(([spec, results]) => {
    const bad = results.filter((r) => r.status !== 'pass').length;
    return `<details class="group"${bad > 0 ? ' open' : ''}><summary><h3>${specHtml(spec, base)}</h3> <span class="muted">${results.length} check${results.length === 1 ? '' : 's'}${bad > 0 ? `, <strong>${bad} not passed</strong>` : ''}</span></summary>
${results.map((r) => checkHtml(r, report, base)).join('\n')}
</details>`;
  });
  const lacks = report.lacks.length > 0 ? ` · declared lacking: ${report.lacks.map(h).join(', ')}` : '';
  return `<section class="mode" id="mode-${h(report.mode)}"><h2>${h(report.mode)} mode <span class="verdict ${report.ok ? 'ok' : 'bad'}">${verdictOf(report)}</span></h2>
<p class="muted">${h(report.marketUrl)} · started ${h(report.startedAt)} · ${seconds(report.durationMs)} · seed ${report.seed}${lacks}</p>
${groups.join('\n')}
</section>`;
}

/** The verdict, counts per mode and every mode's checks: the page's body, without the frame. */
export function renderReportSections(
  reports: ContractReport | readonly ContractReport[],
  options: HtmlReportOptions = {},
): string {
  const list = Array.isArray(reports) ? reports : [reports as ContractReport];
  const base = options.protocolUrl ?? PROTOCOL_DOC_URL;
  const ok = list.length > 0 && list.every((r) => r.ok);
  const warnings = options.warnings ?? [];
  return `<header class="summary"><p class="verdict big ${ok ? 'ok' : 'bad'}" data-verdict="${ok ? 'passed' : 'failed'}">${ok ? 'PASSED' : 'FAILED'}</p>
<p>bnpl-kit certification of <code>${h(list[0]?.marketUrl ?? '')}</code>${options.command ? ` · <code>${h(options.command)}</code>` : ''}</p>
<table class="counts"><thead><tr><th>Mode</th><th>Verdict</th><th>Checks</th><th>Passed</th><th>Failed</th><th>Skipped</th><th>Not run</th><th>Not exercised</th><th>Time</th></tr></thead>
<tbody>${list.map(countsRow).join('')}</tbody></table>
${warnings.length > 0 ? `<ul class="warnings">${warnings.map((w) => `<li>${h(w)}</li>`).join('')}</ul>` : ''}
<p class="muted">Rule IDs link into <a href="${h(base)}">the protocol</a>; hover one for its statement.</p></header>
${list.map((r) => modeHtml(r, base)).join('\n')}`;
}

/** Shared with pages that embed the sections (the sandbox console's certification page). */
export const REPORT_CSS = `
.bnpl-report{font:14px/1.45 system-ui,sans-serif;color:#1d2330}
.bnpl-report code,.bnpl-report pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
.bnpl-report a{color:#1a5fb4}
.bnpl-report .muted{color:#5e6675}
.bnpl-report .verdict{font-weight:700;white-space:nowrap}
.bnpl-report .verdict.ok{color:#1b7f3b}.bnpl-report .verdict.bad{color:#b3261e}
.bnpl-report .verdict.big{font-size:28px;margin:0 0 4px}
.bnpl-report table.counts{border-collapse:collapse;margin:8px 0}
.bnpl-report table.counts th,.bnpl-report table.counts td{border:1px solid #d5d9e0;padding:4px 10px;text-align:right}
.bnpl-report table.counts th:first-child,.bnpl-report table.counts td.verdict{text-align:left}
.bnpl-report .warnings{background:#fff6e0;border:1px solid #f0c36d;padding:8px 8px 8px 28px}
.bnpl-report details.group{border:1px solid #d5d9e0;border-radius:6px;margin:10px 0;padding:4px 10px}
.bnpl-report details.group>summary h3{display:inline;font-size:15px;margin:0}
.bnpl-report .check{border-top:1px solid #eef0f3;padding:3px 0}
.bnpl-report .row{display:flex;flex-wrap:wrap;gap:6px;align-items:baseline;cursor:default}
.bnpl-report details.check>summary{cursor:pointer}
.bnpl-report .id{font-weight:600;overflow-wrap:anywhere}
.bnpl-report .title{flex:1 1 20em;min-width:0}
.bnpl-report .rule{font-size:12px;margin-right:4px}
.bnpl-report .badge{display:inline-block;min-width:6.5em;text-align:center;border-radius:4px;padding:0 6px;font-size:12px;font-weight:600;white-space:nowrap}
.bnpl-report .badge.pass{background:#e3f4e8;color:#1b7f3b}.bnpl-report .badge.fail{background:#fde7e5;color:#b3261e}
.bnpl-report .badge.skip,.bnpl-report .badge.not-exercised{background:#fff1d6;color:#8a5300}
.bnpl-report .badge.not-run{background:#eceef1;color:#5e6675}
.bnpl-report .detail{padding:6px 0 10px 12px;border-left:3px solid #d5d9e0;margin:4px 0 8px 6px}
.bnpl-report .check.fail .detail{border-left-color:#e8a29b}
.bnpl-report h4{margin:10px 0 4px;font-size:13px}.bnpl-report h5{margin:4px 0;font-size:12px;color:#5e6675}
.bnpl-report dl.violation{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0}
.bnpl-report dl.violation dt{font-weight:600}.bnpl-report dl.violation dd{margin:0}
.bnpl-report pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.bnpl-report pre.http,.bnpl-report pre.message{background:#f6f7f9;border:1px solid #e3e6eb;border-radius:4px;padding:6px;max-height:28em;overflow:auto}
.bnpl-report .pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(18em,1fr));gap:8px;margin:4px 0 8px}
.bnpl-report details.exchange>summary{cursor:pointer;overflow-wrap:anywhere}
.bnpl-report .n{color:#5e6675;font-size:12px}
.bnpl-report ul.advice{margin:0;padding-left:20px}
`;

/** The whole page: `bnpl-kit certify --report report.html`. */
export function formatHtmlReport(
  reports: ContractReport | readonly ContractReport[],
  options: HtmlReportOptions = {},
): string {
  const list = Array.isArray(reports) ? reports : [reports as ContractReport];
  const ok = list.length > 0 && list.every((r) => r.ok);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>bnpl-kit certification: ${ok ? 'PASSED' : 'FAILED'} (${h(list.map((r) => r.mode).join(', '))})</title>
<style>body{margin:0;padding:16px 20px;max-width:1200px}${REPORT_CSS}</style></head>
<body class="bnpl-report">
${renderReportSections(list, options)}
</body></html>
`;
}
