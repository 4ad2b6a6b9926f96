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
  /** The offers this user may choose from; the first is preselected. */
  offers: OfferSummary[];
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
  const { order, offers, appName } = input;
  const offer = offers[0]!;
  const decided = outcomeOf(order.status);
  const initialStep = decided ? 'result' : input.frame ? 'connecting' : 'offer';
  const hidden = (name: string) => (name === initialStep ? '' : html` hidden`);
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
    <h2>${offers.length > 1 ? 'Choose how to pay later' : offer.name}</h2>
    ${offers.map(
      (o, i) => html`<label class="offer-choice" data-offer="${o.code}">
      <input type="radio" name="offer" value="${o.code}"${i === 0 ? html` checked` : ''}${offers.length === 1 ? html` hidden` : ''}>
      <span class="offer-text">${offers.length > 1 ? html`<b>${o.name}</b>` : ''}
        <span class="muted">Offered by ${o.providerName} · 0% interest · ${o.instalmentCount} instalments</span>
        ${o.unlockedBy.length > 0 ? html`<span class="badge good unlocked">Unlocked by what ${appName} shared: ${o.unlockedBy.join(', ')}</span>` : ''}
      </span>
      <div class="plan">
        ${instalments(order.totalAmount, o.instalmentCount).map((amount, n) => html`<div><b>${formatAmount(amount)}</b><span class="muted">${n === 0 ? 'Today' : dueDate(n)}</span></div>`)}
      </div>
    </label>`,
    )}
  </div>
  <div class="notice info" id="shared" hidden>${appName} shared with the provider: <span id="shared-scopes"></span></div>
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
    const list = $('shared-scopes');
    list.replaceChildren();
    shared.scopes.forEach((scope, i) => {
      const item = document.createElement('span');
      item.dataset.scope = scope;
      item.textContent = (i > 0 ? ', ' : '') + ((shared.labels && shared.labels[i]) || scope);
      list.append(item);
    });
    if (shared.scopes.length === 0) list.textContent = 'nothing';
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
    const chosen = document.querySelector('input[name="offer"]:checked');
    const query = action === 'approve' && chosen ? '?offer_code=' + encodeURIComponent(chosen.value) : '';
    const answer = await callPage(orderPath + '/' + action + query);
    outcome = { status: action === 'approve' ? 'approved' : 'rejected', paid: answer.is_payment_completed };
    const approved = outcome.status === 'approved';
    const notice = $('result-notice');
    notice.className = 'notice ' + (approved ? 'good' : 'bad');
    notice.textContent = approved ? 'Approved: you pay later.' : 'The provider declined this purchase.';
    $('result-text').textContent = approved
      ? 'Next, ' + data.providerName + ' confirms the order is ready and ' + data.appName +
        ' is paid; ' + data.appName + ' shows each step as it happens. In the sandbox you play the provider: ' +
        (data.dataSharing
          ? 'use Ready in the order list of ' + data.appName + ' or in the sandbox console; ' + data.appName +
            ' then asks for the payout itself.'
          : 'use Ready and Paid in the order list of ' + data.appName + ' or in the sandbox console.')
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
