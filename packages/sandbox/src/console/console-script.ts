/**
 * The console's browser code, as inline JavaScript (no bundle, no CDN). Everything from the admin
 * API is hostile data (product names, URLs, response bodies the market sent back): it only ever
 * reaches the page through `textContent` and DOM nodes built here, never through markup.
 */
import { CONSOLE_HELPERS_SCRIPT } from './console-helpers-script.js';

export const CONSOLE_SCRIPT = String.raw`
"use strict";
(() => {
const facts = JSON.parse(document.getElementById('console-data').textContent);
// The sticky header's real height (it wraps on narrow screens), for the sections' scroll margin.
const headerBar = document.querySelector('header');
new ResizeObserver(() =>
  document.documentElement.style.setProperty('--header-height', headerBar.offsetHeight + 'px'),
).observe(headerBar);
// The admin API is where this page is, one level up: /sandbox/console -> /sandbox.
const base = location.pathname.replace(/\/console\/?$/, '');
${CONSOLE_HELPERS_SCRIPT}
const openDeliveries = new Set();
let timer = null;
let loading = false;

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');
const money = (a) => (a ? String(a.value).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' ' + a.currency : '');
const pretty = (value) => {
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try { return JSON.stringify(JSON.parse(value), null, 2); } catch { return value; }
};
const TONES = { PAID: 'good', APPROVED: 'good', DISBURSING: 'good', delivered: 'good', CANCELED: 'bad',
  CANCELING: 'bad', failed: 'bad', PENDING: 'warn', pending: 'warn', retrying: 'warn' };
const badge = (text) => el('span', { class: 'badge', data: { tone: TONES[text] || '' } }, text);

async function api(method, path, body) {
  const text = await (await request(method, path, body)).text();
  return text ? JSON.parse(text) : {};
}

async function act(label, method, path, body) {
  try {
    await api(method, path, body);
    say(label + ': done', 'good');
  } catch (error) {
    say(label + ': ' + error.message, 'bad');
  }
  await refresh();
}

// ---- Orders ------------------------------------------------------------------------------------

const ORDER_ACTIONS = [
  ['approve', 'Approve', (o) => o.order_status === 'PENDING'],
  ['reject', 'Reject', (o) => o.order_status === 'PENDING'],
  ['ready', 'Ready', (o) => o.order_status === 'APPROVED'],
  ['paid', 'Paid', (o) => o.order_status === 'APPROVED' || o.order_status === 'DISBURSING'],
];

// Readiness stays recorded after the payout; it is news only until the order is paid or canceled.
const AWAITING_PAYOUT = new Set(['APPROVED', 'DISBURSING']);

function orderRow(order) {
  const what = (order.order_lines || []).map((l) => (l.quantity > 1 ? l.name + ' × ' + l.quantity : l.name)).join(', ');
  const history = el('ol', { class: 'history' },
    ...(order.history || []).map((h) => el('li', null, el('b', null, h.status), ' ', when(h.at))));
  const buttons = el('td', null, ...ORDER_ACTIONS.map(([action, label, allowed]) => {
    const button = el('button', { data: { action } }, label);
    button.type = 'button';
    button.disabled = !allowed(order);
    button.addEventListener('click', () =>
      act(label + ' ' + order.id, 'POST', '/orders/' + encodeURIComponent(order.id) + '/' + action, {}));
    return button;
  }));
  return el('tr', { data: { orderId: order.id, status: order.order_status } },
    el('td', null, el('code', null, order.id), el('div', null, what),
      el('div', { class: 'muted' }, order.reference_id, ' · ', order.organization_id,
        order.credify_id ? ' · user ' + order.credify_id : '')),
    el('td', null, money(order.total_amount)),
    el('td', null, badge(order.order_status), order.ready_for_disbursement && AWAITING_PAYOUT.has(order.order_status) ? el('div', { class: 'muted' }, 'ready to disburse') : null),
    el('td', null, history),
    buttons);
}

// ---- Webhook deliveries ------------------------------------------------------------------------

function attemptView(a) {
  return el('div', { class: 'attempt', data: { attempt: a.number } },
    el('h4', null, 'Attempt ' + a.number + ' · ', a.outcome || 'running',
      a.response_status !== null ? ' · HTTP ' + a.response_status : '', ' · ', when(a.started_at)),
    a.error ? el('div', { class: 'muted' }, 'Error: ', a.error) : null,
    el('div', { class: 'muted' }, 'Request headers'),
    el('pre', { class: 'request-headers' }, pretty(a.request_headers)),
    el('div', { class: 'muted' }, 'Response body'),
    el('pre', { class: 'response-body' }, a.response_body === null ? '(none)' : pretty(a.response_body)));
}

function deliveryView(d) {
  const details = el('details', { class: 'delivery', data: { deliveryId: d.id, status: d.status } });
  details.open = openDeliveries.has(d.id);
  details.addEventListener('toggle', () => {
    if (details.open) openDeliveries.add(d.id);
    else openDeliveries.delete(d.id);
  });
  const replay = el('button', { data: { action: 'replay' } }, 'Replay');
  replay.type = 'button';
  replay.addEventListener('click', (event) => {
    event.preventDefault();
    act('Replay ' + d.id, 'POST', '/webhooks/deliveries/' + encodeURIComponent(d.id) + '/replay', {});
  });
  const status = d.payload && (d.payload.order_status || d.payload.transaction_status);
  const summary = el('summary', null,
    el('code', null, d.id), el('b', null, d.event_type), status ? badge(String(status)) : null,
    d.payload && d.payload.order_id ? el('span', { class: 'order-ref' }, 'order ', el('code', null, String(d.payload.order_id))) : null,
    badge(d.status), el('span', { class: 'muted' }, d.attempts.length + ' attempt' + (d.attempts.length === 1 ? '' : 's')),
    d.replay_of ? el('span', { class: 'muted' }, 'replay of ' + d.replay_of) : null,
    d.fault ? el('span', { class: 'muted' }, 'fault: ' + d.fault) : null,
    el('span', { class: 'url' }, d.url), replay);
  details.append(summary,
    el('div', { class: 'muted' }, 'Event ', d.event_id, ' · created ', when(d.created_at),
      d.next_attempt_at ? ' · next attempt ' + when(d.next_attempt_at) : ''),
    el('div', { class: 'muted' }, 'Request body'),
    el('pre', { class: 'request-body' }, pretty(d.body)),
    ...d.attempts.map(attemptView));
  return details;
}

// ---- The rest ----------------------------------------------------------------------------------

function organizationRow(o) {
  const urls = el('div', null,
    el('div', null, 'Webhooks: ', (o.webhook_urls || []).join(', ') || '(none)'),
    el('div', { class: 'muted' }, 'API base: ', o.api_base_url || '(none)'),
    o.offer_filtering_url ? el('div', { class: 'muted' }, 'Offer filtering: ', o.offer_filtering_url) : null);
  return el('tr', { data: { organizationId: o.id } },
    el('td', null, el('b', null, o.name), el('div', null, el('code', null, o.id)),
      o.whitelisted ? null : el('div', null, badge('not whitelisted'))),
    el('td', null, o.integration_mode),
    el('td', null, urls),
    el('td', null, (o.basic_profile_keys || []).join(', ') || '(none)'),
    el('td', null, ...(o.approved_offers || []).map((offer) => el('div', null, el('code', null, offer.code), ' ', offer.name || ''))),
    el('td', null, ...(o.api_keys || []).map((k) => el('div', null, el('code', null, k.key), el('span', { class: 'muted' }, ' ' + k.permissions.join(', '))))));
}

function disbursementRow(d) {
  return el('tr', { data: { disbursementId: d.id } },
    el('td', null, el('code', null, d.id)), el('td', null, el('code', null, d.order_id)),
    el('td', null, money(d.amount)), el('td', { class: 'nowrap' }, d.source),
    el('td', null, d.invoice ? d.invoice.number : ''), el('td', null, when(d.at)));
}

function faultView(f) {
  return el('pre', { class: 'fault-entry' }, JSON.stringify(f, null, 2));
}

function fill(id, nodes, countId) {
  $(id).replaceChildren(...nodes);
  const empty = $(id + '-empty');
  if (empty) empty.hidden = nodes.length > 0;
  if (countId) $(countId).textContent = '(' + nodes.length + ')';
}

async function refresh() {
  if (loading) return;
  loading = true;
  try {
    const [state, deliveries] = await Promise.all([api('GET', '/state'), api('GET', '/webhooks/deliveries')]);
    $('token-section').hidden = true;
    $('entity').textContent = 'Entity ' + state.entity_id + ' · webhook public key ' + state.webhook_public_key;
    fill('orders', [...state.orders].reverse().map(orderRow), 'orders-count');
    fill('deliveries', [...deliveries.deliveries].reverse().map(deliveryView), 'deliveries-count');
    fill('disbursements', [...state.disbursements].reverse().map(disbursementRow), 'disbursements-count');
    fill('faults', state.faults.map(faultView), 'faults-count');
    fill('organizations', state.organizations.map(organizationRow), 'organizations-count');
    $('refreshed').textContent = 'updated ' + new Date().toLocaleTimeString();
    document.body.dataset.loaded = 'true';
  } catch (error) {
    $('refreshed').textContent = 'not updated: ' + error.message;
  } finally {
    loading = false;
  }
}

function schedule() {
  clearInterval(timer);
  timer = $('auto-refresh').checked ? setInterval(refresh, 2000) : null;
}

// ---- Fault form --------------------------------------------------------------------------------

$('fault-operation').replaceChildren(...facts.operations.map((op) => new Option(op, op)));
function showFaultFields() {
  const target = $('fault-target').value;
  for (const label of document.querySelectorAll('[data-for]')) label.hidden = label.dataset.for !== target;
}
$('fault-target').addEventListener('change', showFaultFields);
$('fault-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const target = $('fault-target').value;
  const times = Number($('fault-times').value) || 1;
  const fault = target === 'route'
    ? { target, operation: $('fault-operation').value, action: $('fault-route-action').value, times,
        status: Number($('fault-status').value) || 500 }
    : { target, action: $('fault-webhook-action').value, times, delay_ms: Number($('fault-delay').value) || 0,
        ...($('fault-event-type').value.trim() && { event_type: $('fault-event-type').value.trim() }) };
  act('Inject ' + fault.action, 'POST', '/faults', fault);
});
$('faults-clear').addEventListener('click', () => act('Clear faults', 'DELETE', '/faults'));

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token-input').value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  refresh();
});
$('refresh').addEventListener('click', () => refresh());
$('auto-refresh').addEventListener('change', schedule);
if (facts.needsToken && !token) $('token-section').hidden = false;
showFaultFields();
schedule();
refresh();
})();
`;
