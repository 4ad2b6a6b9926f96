/**
 * The Certification page's browser code (inline, no bundle). Check titles and messages come from the
 * market's answers: they reach the page through `textContent` only. The run is followed by polling
 * its JSON (`GET /sandbox/certification/runs/:id`) once a second until it ends.
 */
import { CONSOLE_HELPERS_SCRIPT } from './console-helpers-script.js';

export const CERTIFICATION_SCRIPT = String.raw`
"use strict";
(() => {
const facts = JSON.parse(document.getElementById('console-data').textContent);
// The admin API is two levels up: /sandbox/console/certification -> /sandbox.
const base = location.pathname.replace(/\/console\/certification\/?$/, '');
${CONSOLE_HELPERS_SCRIPT}
let following = null;

const TONES = { pass: 'good', passed: 'good', PASS: 'good', fail: 'bad', failed: 'bad', error: 'bad', FAIL: 'bad',
  ERROR: 'bad', running: 'warn', skip: 'warn', 'not-run': 'warn', 'not-exercised': 'warn' };
const badge = (text) => el('span', { class: 'badge', data: { tone: TONES[text] || '' } }, text);
const VERDICTS = { passed: 'PASS', failed: 'FAIL', error: 'ERROR', running: 'running' };

const api = request;
const getJson = async (path) => (await api('GET', path)).json();

/** The report: a link where no token is needed, else fetched with the token and saved as a file. */
function reportControl(run) {
  const path = '/certification/runs/' + encodeURIComponent(run.id) + '/report';
  if (!token) {
    const link = el('a', { class: 'report' }, 'Report');
    link.href = base + path;
    link.target = '_blank';
    return link;
  }
  const button = el('button', { class: 'report' }, 'Download report');
  button.type = 'button';
  button.addEventListener('click', async () => {
    try {
      const blob = await (await api('GET', path)).blob();
      const link = el('a');
      link.href = URL.createObjectURL(blob);
      link.download = 'certify-report-' + run.id + '.html';
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (error) { say(error.message, 'bad'); }
  });
  return button;
}

function checkRow(check) {
  return el('li', { data: { checkId: check.id, status: check.status } }, badge(check.status), ' ',
    el('code', null, check.id), ' ', check.title,
    check.message && check.status !== 'pass' ? el('div', { class: 'muted' }, check.message) : null);
}

function showRun(run) {
  $('live-section').hidden = false;
  $('run-id').textContent = run.id + ' · ' + run.mode;
  $('progress').textContent = '(' + run.checks.length + ' checks' + (run.state === 'running' ? ' so far' : '') + ')';
  $('verdict').replaceChildren(badge(VERDICTS[run.state] || run.state));
  $('verdict').dataset.verdict = VERDICTS[run.state] || run.state;
  $('run-error').textContent = run.error || '';
  $('checks').replaceChildren(...run.checks.map(checkRow));
  if (run.report) $('verdict').append(' ', reportControl(run));
}

function runRow(run) {
  const open = el('button', { data: { action: 'show' } }, 'Checks');
  open.type = 'button';
  open.addEventListener('click', () => follow(run.id));
  const counts = run.summary ? run.summary.passed + ' passed, ' + run.summary.failed + ' failed of ' + run.summary.total : run.checks_done + ' so far';
  return el('tr', { data: { runId: run.id, state: run.state } },
    el('td', null, el('code', null, run.id)), el('td', null, run.mode),
    el('td', null, new Date(run.started_at).toLocaleString()),
    el('td', null, badge(VERDICTS[run.state] || run.state)), el('td', null, counts),
    el('td', null, open, run.report ? reportControl(run) : null));
}

async function load() {
  try {
    const index = await getJson('/certification');
    $('token-section').hidden = true;
    if (!index.available) {
      $('unavailable').hidden = false;
      $('unavailable-reason').textContent = index.reason;
      $('run-section').hidden = true;
    } else {
      $('run-section').hidden = false;
      const chosen = $('mode').value;
      $('mode').replaceChildren(...index.modes.map((m) => new Option(m, m, false, m === chosen)));
      $('notice').textContent = index.notice || '';
    }
    $('target').textContent = 'Market ' + (index.api_base_url || '(no API base URL)') + ' · organisation ' + (index.organization_id || '-');
    $('runs').replaceChildren(...index.runs.map(runRow));
    $('runs-empty').hidden = index.runs.length > 0;
    $('runs-count').textContent = '(' + index.runs.length + ')';
    $('run').disabled = index.runs.some((r) => r.state === 'running');
    document.body.dataset.loaded = 'true';
  } catch (error) {
    say(error.message, 'bad');
  }
}

/** Shows a run and, while it runs, polls it once a second; the past runs follow when it ends. */
async function follow(id) {
  following = id;
  for (;;) {
    let run;
    try { run = await getJson('/certification/runs/' + encodeURIComponent(id)); } catch (error) { say(error.message, 'bad'); return; }
    if (following !== id) return;
    showRun(run);
    if (run.state !== 'running') return load();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

$('run-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    $('run').disabled = true;
    const run = await (await api('POST', '/certification/runs', { mode: $('mode').value })).json();
    await load();
    follow(run.id);
  } catch (error) {
    say('Run: ' + error.message, 'bad');
    load();
  }
});
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token-input').value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  load();
});
if (facts.needsToken && !token) $('token-section').hidden = false;
load();
})();
`;
