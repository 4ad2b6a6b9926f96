/**
 * The hosted passport page: the user's BNPL orders at one market and a Repay action, with a Close
 * button that ends the SDK flow. Everything shown is server-rendered and escaped; the script only
 * swaps a repaid row's button for a badge and updates the outstanding total.
 */
import type { SandboxOrder, SandboxState } from '../state.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { formatAmount, instalments } from './money.js';
import type { OfferSummary } from './offer.js';
import type { FrameParams } from './params.js';
import { type LoanState, loanState, outstanding } from './repayments.js';

export interface PassportPageInput {
  nonce: string;
  state: SandboxState;
  orders: SandboxOrder[];
  appName: string;
  frame: FrameParams | undefined;
  pageSession: string;
  /** The plan the user chose when the order was approved (unknown for an order not yet approved). */
  planOf: (order: SandboxOrder) => OfferSummary | undefined;
}

/** "Pay later in 6 monthly instalments · 6 × 250,000 VND": what the user agreed to repay. */
function planText(order: SandboxOrder, plan: OfferSummary): string {
  const [first, ...rest] = instalments(order.totalAmount, plan.instalmentCount);
  const amounts =
    rest.length === 0 || rest[0]!.value === first!.value
      ? `${plan.instalmentCount} × ${formatAmount(first!)}`
      : `${formatAmount(first!)}, then ${rest.length} × ${formatAmount(rest[0]!)}`;
  return `${plan.name} · ${amounts}`;
}

const BADGES: Record<LoanState, { label: string; tone: string }> = {
  pending: { label: 'Awaiting approval', tone: '' },
  owing: { label: 'To repay', tone: '' },
  repaid: { label: 'Repaid', tone: 'good' },
  canceled: { label: 'Canceled', tone: 'bad' },
};

export function renderPassportPage(input: PassportPageInput): string {
  const { orders, appName } = input;
  const rows = orders.map((order) => {
    const state = loanState(input.state, order);
    const badge = BADGES[state];
    const plan = input.planOf(order);
    return html`<li data-order-id="${order.id}">
  <div class="what"><strong>${order.orderLines.map((l) => l.name).join(', ')}</strong>
  <span class="muted">Order ${order.referenceId} · ${new Date(order.createdAt).toISOString().slice(0, 10)} · ${formatAmount(order.totalAmount)}</span>
  ${plan ? html`<span class="plan-chosen" data-offer="${plan.code}">Plan: ${planText(order, plan)}</span>` : ''}</div>
  ${
    state === 'owing'
      ? html`<button class="primary repay" data-repay="${order.id}">Repay ${formatAmount(order.totalAmount)}</button>`
      : html`<span class="badge ${badge.tone}">${badge.label}</span>`
  }
</li>`;
  });
  const body = html`
<h1>Your pay-later account</h1>
<div class="card">
  <div class="muted">Outstanding at ${appName}</div>
  <div><strong id="outstanding">${formatAmount(outstanding(input.state, orders))}</strong></div>
</div>
<div class="card">
  <h2>Orders</h2>
  ${
    orders.length === 0
      ? html`<p class="muted" id="no-orders">No pay-later orders at ${appName} yet.</p>`
      : html`<ul class="orders">${rows}</ul>`
  }
</div>
<div class="notice bad" role="alert" id="error-text" hidden></div>
<div class="actions"><button data-close>Close</button></div>
<p class="muted">Sandbox: Repay marks the order as paid back; no money moves.</p>`;

  return renderPage({
    nonce: input.nonce,
    title: 'Your pay-later account',
    subtitle: `Pay later at ${appName}`,
    body,
    data: { frame: input.frame ?? null, pageSession: input.pageSession },
    script: PASSPORT_SCRIPT,
  });
}

const PASSPORT_SCRIPT = `
if (bridge) bridge.ready();
for (const button of document.querySelectorAll('[data-repay]')) {
  button.addEventListener('click', async () => {
    button.disabled = true;
    $('error-text').hidden = true;
    try {
      const answer = await callPage('/orders/' + encodeURIComponent(button.dataset.repay) + '/repay');
      const badge = document.createElement('span');
      badge.className = 'badge good';
      badge.textContent = 'Repaid';
      button.replaceWith(badge);
      $('outstanding').textContent = answer.outstanding_text;
    } catch (error) {
      button.disabled = false;
      $('error-text').textContent = error.message;
      $('error-text').hidden = false;
    }
  });
}
`;
