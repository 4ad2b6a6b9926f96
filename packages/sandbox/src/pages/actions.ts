/**
 * The hosted pages' own endpoints. They drive the same provider actions as the admin API
 * (`sandbox.orders.approve/reject`), so the market gets the same signed webhooks. Each needs the
 * live page session of the page that shows the order (header `X-Page-Session`), and a browser's
 * `Sec-Fetch-Site`, when sent, must say same-origin: another site can neither read the token nor
 * make a browser attach it.
 */
import { KitError } from '@bnpl-kit/core';
import { ServiceFailure } from '../http.js';
import type { Sandbox } from '../sandbox.js';
import { formatAmount } from './money.js';
import { offersFor } from './offer.js';
import { outstanding, repay, userOrders } from './repayments.js';
import { scopeLabel } from './scope-labels.js';
import { pageJson } from './security.js';
import type { PageSessionScope, PageSessions } from './sessions.js';

export function isDataSharing(organization: { offerFilteringUrl: string | undefined }): boolean {
  return organization.offerFilteringUrl !== undefined;
}

/** Domain failures (unknown order, wrong status) as the kit's problem documents. */
export function asKitError(error: unknown): unknown {
  if (!(error instanceof ServiceFailure)) return error;
  if (error.status === 404) return new KitError('order_not_found', error.message);
  if (error.status === 409) return new KitError('invalid_transition', error.message);
  return error;
}

function pageSession(request: Request, sessions: PageSessions): PageSessionScope {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') {
    throw new KitError('forbidden', 'Hosted page actions are accepted from the page itself only');
  }
  const scope = sessions.read(request);
  if (!scope) {
    throw new KitError('unauthenticated', 'This page has expired; open it again from the market');
  }
  return scope;
}

function bnplSession(request: Request, sessions: PageSessions, orderId: string) {
  const scope = pageSession(request, sessions);
  if (scope.kind !== 'bnpl' || scope.orderId !== orderId) {
    throw new KitError('forbidden', 'This page session is for another order');
  }
  return scope;
}

function sharedScopes(sandbox: Sandbox, credifyId: string | undefined, organizationId: string): string[] {
  if (!credifyId) return [];
  return sandbox.claims
    .list(credifyId)
    .filter((c) => c.organizationId === organizationId)
    .map((c) => c.scopeName);
}

export type PageAction = (
  sandbox: Sandbox,
  sessions: PageSessions,
  request: Request,
  params: Record<string, string>,
) => Response | Promise<Response>;

export const approveAction: PageAction = (sandbox, sessions, request, { id }) => {
  const scope = bnplSession(request, sessions, id!);
  const order = sandbox.orders.get(id!);
  const organization = order && sandbox.organizations.get(order.organizationId);
  if (!order || !organization) throw new KitError('order_not_found', `No order ${id}`);
  if (isDataSharing(organization) && sharedScopes(sandbox, scope.credifyId, organization.id).length === 0) {
    throw new KitError(
      'conflict',
      'The provider has not received the user’s claims: the market’s push-claims must succeed first',
    );
  }
  // The offer the user chose on the page, among those this user may have.
  const offers = offersFor(
    organization,
    scope.credifyId ? sandbox.state.rankedOffers.get(scope.credifyId) : undefined,
  );
  const wanted = new URL(request.url).searchParams.get('offer_code');
  const offer = wanted === null ? offers[0] : offers.find((o) => o.code === wanted);
  if (!offer) throw new KitError('validation_failed', 'That offer is not available to this user');
  const approved = sandbox.orders.approve(order.id, {
    ...(scope.credifyId && { credifyId: scope.credifyId }),
    offerCode: offer.code,
  });
  return pageJson({ order_id: approved.id, order_status: approved.status, is_payment_completed: true });
};

export const rejectAction: PageAction = (sandbox, sessions, request, { id }) => {
  bnplSession(request, sessions, id!);
  const rejected = sandbox.orders.reject(id!);
  return pageJson({ order_id: rejected.id, order_status: rejected.status, is_payment_completed: false });
};

export const sharedClaimsAction: PageAction = (sandbox, sessions, request, { id }) => {
  const scope = bnplSession(request, sessions, id!);
  const order = sandbox.orders.get(id!);
  if (!order) throw new KitError('order_not_found', `No order ${id}`);
  const scopes = sharedScopes(sandbox, scope.credifyId, order.organizationId);
  // `labels[i]` is `scopes[i]` as a person reads it ("Loyalty membership", not "org-…:loyalty").
  return pageJson({ scopes, labels: scopes.map(scopeLabel) });
};

export const repayAction: PageAction = (sandbox, sessions, request, { id }) => {
  const scope = pageSession(request, sessions);
  const order = sandbox.orders.get(id!);
  if (
    scope.kind !== 'passport' ||
    !order ||
    order.credifyId !== scope.credifyId ||
    order.organizationId !== scope.marketId
  ) {
    throw new KitError('forbidden', 'This page session cannot repay that order');
  }
  repay(sandbox.state, order, sandbox.clock.now());
  const remaining = outstanding(sandbox.state, userOrders(sandbox.state, scope.credifyId, scope.marketId));
  return pageJson({
    order_id: order.id,
    repaid: true,
    outstanding: remaining,
    outstanding_text: formatAmount(remaining),
  });
};
