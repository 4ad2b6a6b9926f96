/**
 * Observability of the market handler: one span per request (`bnpl.market <route>`, active while
 * the route runs, so service calls and the webhook's verify/apply spans nest under it), the request
 * duration by route and status, and log lines that carry the active trace ID.
 */
import { recordMarketRequest } from '../observability/metrics.js';
import { withSpan } from '../observability/telemetry.js';
import type { MarketAnswer } from './answer.js';
import type { HandleOptions } from './create-market.js';

type Responder = (request: Request, options?: HandleOptions) => Promise<MarketAnswer>;

export function observeRequests(respond: Responder): Responder {
  return (request, options) => {
    const started = performance.now();
    return withSpan('bnpl.market', { 'http.request.method': request.method }, async (span) => {
      const answer = await respond(request, options);
      if (answer.route !== undefined) {
        span.updateName(`bnpl.market ${answer.route}`);
        span.setAttribute('bnpl.route', answer.route);
      }
      span.setAttribute('http.response.status_code', answer.status);
      recordMarketRequest(answer.route, answer.status, (performance.now() - started) / 1000);
      return answer;
    });
  };
}
