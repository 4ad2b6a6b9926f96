/**
 * The market's own routes next to the kit: liveness (`/healthz`: the process answers), readiness
 * (`/readyz`, the published `readinessResponse`: the database answers, every migration is applied
 * and the job worker runs; 503 while shutting down, so a load balancer stops sending traffic
 * before the server stops accepting it), and the page the BNPL
 * provider sends the user back to (the default `BNPL_CALLBACK_URL` in sandbox mode).
 */
import { KitError, parseBearerToken, type Secret } from '@bnpl-kit/core';
import { unstorableReason } from '@bnpl-kit/core/wire';
import type { Store } from '@bnpl-kit/store';
import { type Drain, type JobWorker, readinessResponse } from '@bnpl-kit/store/worker';
import { sameSecret } from './auth.js';
import { type CompleteLinks, completeLinks } from './complete-link.js';
import { completePage, wantsHtml } from './complete-page.js';
import { DEMO_USER_PATH, type DemoUserDeps, demoUsersBody } from './demo-user.js';

/**
 * The server's own GET routes, fetch-style (path → handler), so every framework serves the same
 * answers. `accept` is the request's Accept header: a browser gets a page where a script gets JSON.
 */
export type OwnRoute = (url: URL, accept: string, authorization?: string) => Response | Promise<Response>;
export type OwnRoutes = Record<string, OwnRoute>;

export const BNPL_COMPLETE_PATH = '/bnpl/complete';

/** Browsers ask every origin for /favicon.ico; a 404 there is noise in every page's console. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0f766e"/><text x="16" y="22" font-family="system-ui,sans-serif" font-size="16" font-weight="700" text-anchor="middle" fill="#fff">B</text></svg>`;

/**
 * Whether `/bnpl/complete` may show this order: the signed link the market handed out, or the
 * market's own systems (`Authorization: Bearer $MARKET_API_TOKEN`, as the walkthrough polls it).
 */
function mayShow(
  links: CompleteLinks,
  marketApiToken: Secret,
  url: URL,
  orderId: string,
  authorization: string,
): boolean {
  if (links.verify(orderId, url.searchParams.get('sig'))) return true;
  const token = parseBearerToken(authorization);
  return token !== undefined && sameSecret(token, marketApiToken.reveal());
}

export function createOwnRoutes(
  store: Store,
  health: { drain: Pick<Drain, 'draining'>; worker: Pick<JobWorker, 'state'> },
  demo: DemoUserDeps | undefined,
  marketApiToken: Secret,
): OwnRoutes {
  const noStore = { 'cache-control': 'no-store' };
  const links = completeLinks(marketApiToken);
  const routes: OwnRoutes = {
    '/healthz': () => Response.json({ status: 'ok' }, { headers: noStore }),
    '/favicon.ico': () =>
      new Response(FAVICON, {
        headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
      }),
    '/readyz': () => readinessResponse({ store, drain: health.drain, worker: health.worker }),
    async [BNPL_COMPLETE_PATH](url, accept, authorization = '') {
      const orderId = url.searchParams.get('order_id') ?? '';
      // Looked up in the database: an ID it could not hold is a 400, not a failed query.
      const problem = orderId.length > 255 ? 'must be at most 255 characters' : unstorableReason(orderId);
      if (problem !== undefined) {
        return new KitError('validation_failed', `order_id ${problem}`, {
          errors: [{ path: 'order_id', message: problem }],
        }).toResponse();
      }
      // Without the signed link the answer is the unknown order's: nothing says whether it exists.
      const allowed = orderId !== '' && mayShow(links, marketApiToken, url, orderId, authorization);
      const order = allowed ? await store.findOrderById(orderId) : undefined;
      // A person sent back by the provider reads a page; curl and scripts keep the JSON.
      if (wantsHtml(accept)) {
        return completePage({ orderId, status: order?.status, shopUrl: demo ? '/' : undefined });
      }
      if (!order) {
        return new KitError(
          'order_not_found',
          'No order with this order_id and link signature is known here',
          {
            extensions: { order_id: orderId || null },
          },
        ).toResponse({ 'cache-control': 'no-store' });
      }
      return Response.json(
        {
          message: 'The BNPL flow is finished; the order status arrives by webhook.',
          order_id: orderId || null,
          status: order.status,
        },
        { headers: noStore },
      );
    },
  };
  if (demo) {
    routes[DEMO_USER_PATH] = async () => Response.json(await demoUsersBody(demo), { headers: noStore });
  }
  return routes;
}
