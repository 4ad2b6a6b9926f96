/**
 * `/pages/...`: the service's hosted pages that the web SDK opens in its dialog (the URL contract of
 * `@bnpl-kit/web`'s protocol.ts), plus their own endpoints. GET routes answer HTML with a strict
 * CSP; the action routes answer JSON or RFC 9457 problems.
 */
import { KitError } from '@bnpl-kit/core';
import { problemResponse, Router } from '@bnpl-kit/core/wire';
import type { Sandbox } from '../sandbox.js';
import {
  approveAction,
  asKitError,
  isDataSharing,
  type PageAction,
  rejectAction,
  repayAction,
  sharedClaimsAction,
} from './actions.js';
import { renderBnplPage } from './bnpl-page.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { offersFor, summarizeOffer } from './offer.js';
import { type FrameParams, PageParamError, readBnplParams, readPassportParams } from './params.js';
import { renderPassportPage } from './passport-page.js';
import { userOrders } from './repayments.js';
import { createNonce, htmlResponse } from './security.js';
import { PageSessions } from './sessions.js';

export interface HostedPages {
  handle(request: Request, path: string): Promise<Response>;
}

export const isPagePath = (path: string) => path === '/pages' || path.startsWith('/pages/');

/** A page that only explains what went wrong (and, inside the SDK, offers Close). */
function errorPage(status: number, message: string, frame: FrameParams | undefined): Response {
  const nonce = createNonce();
  const page = renderPage({
    nonce,
    title: 'Pay later',
    subtitle: 'Pay later',
    body: html`<div class="notice bad" role="alert">${message}</div><div class="actions"><button data-close>Close</button></div>`,
    data: { frame: frame ?? null, pageSession: '' },
    script: 'if (bridge) bridge.ready();',
  });
  return htmlResponse(page, status, nonce, frame?.origin);
}

function bnplPage(sandbox: Sandbox, sessions: PageSessions, url: URL): Response {
  const params = readBnplParams(url.searchParams);
  const order = sandbox.orders.get(params.orderId);
  const organization = order && sandbox.organizations.get(order.organizationId);
  if (!order || !organization) return errorPage(404, 'This order does not exist.', params.frame);
  if (organization.approvedOffers.length === 0 || !organization.whitelisted) {
    return errorPage(409, 'Pay later is not available for this order.', params.frame);
  }
  // Only a service user of this market counts; an unknown ID is as good as none.
  const candidate = params.credifyId ?? order.credifyId;
  const user = candidate === undefined ? undefined : sandbox.users.get(candidate);
  const credifyId = user?.organizationId === organization.id ? user.credifyId : undefined;
  const offers = offersFor(organization, credifyId ? sandbox.state.rankedOffers.get(credifyId) : undefined);
  const nonce = createNonce();
  const body = renderBnplPage({
    nonce,
    order,
    organization,
    offers,
    appName: params.appName ?? organization.name,
    credifyId,
    dataSharing: isDataSharing(organization),
    frame: params.frame,
    pageSession: sessions.create({ kind: 'bnpl', orderId: order.id, credifyId }),
    now: sandbox.clock.now(),
  });
  return htmlResponse(body, 200, nonce, params.frame?.origin);
}

function passportPage(sandbox: Sandbox, sessions: PageSessions, url: URL): Response {
  const params = readPassportParams(url.searchParams);
  const organization = sandbox.organizations.get(params.marketId);
  const user = sandbox.users.get(params.credifyId);
  if (!organization || user?.organizationId !== organization.id) {
    return errorPage(404, 'This pay-later account does not exist.', params.frame);
  }
  const orders = params.productTypes.includes('consumerBNPL')
    ? userOrders(sandbox.state, user.credifyId, organization.id)
    : [];
  const nonce = createNonce();
  const body = renderPassportPage({
    nonce,
    state: sandbox.state,
    orders,
    appName: params.appName ?? organization.name,
    frame: params.frame,
    planOf: (order) => {
      // The approval recorded the chosen offer on the order's transaction.
      const code = [...sandbox.state.transactions.values()].find((t) => t.orderId === order.id)?.offerCode;
      const offer = organization.approvedOffers.find((o) => o.code === code);
      return offer ? summarizeOffer(offer) : undefined;
    },
    pageSession: sessions.create({
      kind: 'passport',
      credifyId: user.credifyId,
      marketId: organization.id,
    }),
  });
  return htmlResponse(body, 200, nonce, params.frame?.origin);
}

type PageRoute = (request: Request, params: Record<string, string>) => Promise<Response> | Response;

function pageRouter(sandbox: Sandbox, sessions: PageSessions): Router<PageRoute> {
  const page =
    (render: (url: URL) => Response): PageRoute =>
    (request) => {
      try {
        return render(new URL(request.url));
      } catch (error) {
        // A bad origin must not be framed: the refusal carries frame-ancestors 'none'.
        if (error instanceof PageParamError) return errorPage(400, error.message, undefined);
        throw error;
      }
    };
  const action =
    (act: PageAction): PageRoute =>
    async (request, params) => {
      try {
        return await act(sandbox, sessions, request, params);
      } catch (error) {
        return problemResponse(asKitError(error));
      }
    };
  const routes = [
    ['GET', '/pages/bnpl', page((url) => bnplPage(sandbox, sessions, url))],
    ['GET', '/pages/passport', page((url) => passportPage(sandbox, sessions, url))],
    ['POST', '/pages/bnpl/:id/approve', action(approveAction)],
    ['POST', '/pages/bnpl/:id/reject', action(rejectAction)],
    ['GET', '/pages/bnpl/:id/shared-claims', action(sharedClaimsAction)],
    ['POST', '/pages/passport/orders/:id/repay', action(repayAction)],
  ] as const;
  return new Router(
    routes.map(([method, path, handler]) => ({ name: `${method} ${path}`, method, path, handler })),
    '',
  );
}

export function createHostedPages(sandbox: Sandbox): HostedPages {
  const router = pageRouter(sandbox, new PageSessions(sandbox.clock));
  return {
    async handle(request, rawPath) {
      const path = rawPath.replace(/\/+$/, '');
      const match = router.match(request.method, path);
      if (match.kind === 'found') return await match.route.handler(request, match.params);
      if (match.kind === 'wrong_method') {
        const allow = match.allow.join(', ');
        return problemResponse(new KitError('method_not_allowed', `Use ${allow}`), { allow });
      }
      return problemResponse(new KitError('not_found', `No hosted page at ${path}`));
    },
  };
}
