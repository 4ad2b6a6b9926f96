/**
 * The hosted BNPL page: the order (from sandbox state), the simulated provider's offer, and the
 * provider's decision as two buttons. In data-sharing mode it first asks the SDK to push the user's
 * claims. Inside the SDK it ends by posting `completed`; opened top-level it sends the user through
 * the market's BNPL redirect (`{api_base_url}/v1/bnpl/orders/:id/redirect`) to the callback URL.
 */
import type { Organization } from '../organizations.js';
import type { SandboxOrder } from '../state.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { formatAmount, instalments } from './money.js';
import { type OfferSummary, outcomeOf } from './offer.js';
import type { FrameParams } from './params.js';

export interface BnplPageInput {
  nonce: string;
  order: SandboxOrder;
  organization: Organization;
  offer: OfferSummary;
  appName: string;
  credifyId: string | undefined;
  dataSharing: boolean;
  frame: FrameParams | undefined;
  pageSession: string;
  now: number;
}

/**
 * The market's BNPL redirect, which 302s to its callback URL (WIRE §5), when its API base URL is
 * known. The dashboard's API base URL may or may not include the `/v1` prefix; both are accepted.
 */
export function marketRedirectUrl(organization: Organization, orderId: string): string | undefined {
  if (!organization.apiBaseUrl) return undefined;
  const base = organization.apiBaseUrl.replace(/\/+$/, '');
  const prefix = base.endsWith('/v1') ? '' : '/v1';
  return `${base}${prefix}/bnpl/orders/${encodeURIComponent(orderId)}/redirect`;
}

const MONTH_MS = 30 * 86_400_000;

export function renderBnplPage(input: BnplPageInput): string {
  const { order, offer, appName } = input;
  const decided = outcomeOf(order.status);
  const initialStep = decided ? 'result' : input.frame ? 'connecting' : 'offer';
  const hidden = (name: string) => (name === initialStep ? '' : html` hidden`);
  const plan = instalments(order.totalAmount, offer.instalmentCount);
  const dueDate = (i: number) => new Date(input.now + i * MONTH_MS).toISOString().slice(0, 10);
  const redirectUrl = marketRedirectUrl(input.organization, order.id);
  const decidedText =
    decided?.status === 'approved'
      ? `This order is already approved (${order.status}).`
      : `This order was canceled (${order.status}).`;

  const body = html`
<h1>Pay later at ${appName}</h1>
<section data-step="connecting"${hidden('connecting')} aria-live="polite">
  <p><span class="spinner" aria-hidden="true"></span>Connecting to ${appName}…</p>
</section>
<section data-step="sharing"${hidden('sharing')} aria-live="polite">
  <p><span class="spinner" aria-hidden="true"></span>Sharing your profile with ${offer.providerName}…</p>
  <p class="muted">${appName} sends the provider signed claims about you, with your consent.</p>
</section>
<section data-step="share-failed"${hidden('share-failed')}>
  <div class="notice bad" role="alert">${appName} could not share your profile with the provider.</div>
  <div class="actions">
    <button class="primary" id="retry-share" data-autofocus>Try again</button>
    <button data-close>Close</button>
  </div>
</section>
<section data-step="offer"${hidden('offer')}>
  <div class="card">
    <h2>Order ${order.referenceId}</h2>
    <table class="lines">
      ${order.orderLines.map(
        (line) =>
          html`<tr><td>${line.name} × ${line.quantity}</td><td class="num">${formatAmount(line.subtotal)}</td></tr>`,
      )}
      <tr class="total"><td>Total</td><td class="num" id="order-total">${formatAmount(order.totalAmount)}</td></tr>
    </table>
  </div>
  <div class="card" id="offer">
    <h2>${offer.name}</h2>
    <div class="muted">Offered by ${offer.providerName} · 0% interest</div>
    <div class="plan">
      ${plan.map((amount, i) => html`<div><b>${formatAmount(amount)}</b><span class="muted">${i === 0 ? 'Today' : dueDate(i)}</span></div>`)}
    </div>
  </div>
  <div class="notice info" id="shared" hidden>Shared with the provider: <span id="shared-scopes"></span></div>
  <div class="actions">
    <button class="primary" id="approve" data-autofocus>Approve</button>
    <button id="reject">Reject</button>
  </div>
  <p class="muted">Sandbox: Approve and Reject play the provider's decision; ${appName} is told by signed webhook.</p>
</section>
<section data-step="working"${hidden('working')} aria-live="polite">
  <p><span class="spinner" aria-hidden="true"></span>Waiting for ${offer.providerName}…</p>
</section>
<section data-step="result"${hidden('result')}>
  <div class="notice ${decided?.status === 'rejected' ? 'bad' : 'good'}" id="result-notice" role="status">${decided ? decidedText : ''}</div>
  <p id="result-text" class="muted"></p>
  <div class="actions"><button class="primary" id="done" data-autofocus>Back to ${appName}</button></div>
</section>
<section data-step="error"${hidden('error')}>
  <div class="notice bad" role="alert" id="error-text"></div>
  <div class="actions"><button data-close>Close</button></div>
</section>`;

  return renderPage({
    nonce: input.nonce,
    title: `Pay later at ${appName}`,
    subtitle: `Paying ${appName}`,
    body,
    data: {
      orderId: order.id,
      credifyId: input.credifyId ?? null,
      dataSharing: input.dataSharing,
      frame: input.frame ?? null,
      pageSession: input.pageSession,
      redirectUrl: redirectUrl ?? null,
      decided: decided ?? null,
      appName,
      providerName: offer.providerName,
    },
    script: BNPL_SCRIPT,
  });
}

const BNPL_SCRIPT = `
const orderPath = '/' + encodeURIComponent(data.orderId);
let outcome = data.decided;
const doneButton = $('done');
doneButton.hidden = !bridge && !data.redirectUrl;
doneButton.addEventListener('click', () => {
  if (!outcome) return;
  if (bridge) bridge.complete(outcome.status, data.orderId, outcome.paid);
  else if (data.redirectUrl) location.assign(data.redirectUrl);
});
function fail(message) {
  $('error-text').textContent = message;
  show('error');
}
async function shareClaims() {
  show('sharing');
  const ok = await bridge.requestPushClaims(data.credifyId);
  if (!ok) return show('share-failed');
  try {
    const shared = await callPage(orderPath + '/shared-claims', 'GET');
    $('shared-scopes').textContent = shared.scopes.join(', ') || 'nothing';
    $('shared').hidden = false;
  } catch {
    // Only informational: approving checks the claims again.
  }
  show('offer');
}
$('retry-share').addEventListener('click', shareClaims);
function start() {
  if (outcome) return show('result');
  if (data.dataSharing && !data.credifyId) {
    return fail('This market shares user data, so the user needs a service user ID first: check BNPL availability before opening this page.');
  }
  if (data.dataSharing && bridge) return shareClaims();
  show('offer');
}
async function decide(action) {
  show('working');
  try {
    const answer = await callPage(orderPath + '/' + action);
    outcome = { status: action === 'approve' ? 'approved' : 'rejected', paid: answer.is_payment_completed };
    const approved = outcome.status === 'approved';
    const notice = $('result-notice');
    notice.className = 'notice ' + (approved ? 'good' : 'bad');
    notice.textContent = approved ? 'Approved: you pay later.' : 'The provider declined this purchase.';
    $('result-text').textContent = approved
      ? data.providerName + ' pays ' + data.appName + ' now; your first instalment is due today.'
      : 'Nothing was charged. You can pay another way.';
    show('result');
  } catch (error) {
    fail(error.message);
  }
}
$('approve').addEventListener('click', () => decide('approve'));
$('reject').addEventListener('click', () => decide('reject'));
if (bridge) {
  bridge.onHostReady(start);
  bridge.ready();
} else {
  start();
}
`;
