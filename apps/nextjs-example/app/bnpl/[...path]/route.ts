/**
 * Every market endpoint under /bnpl, from one App Router route handler. Route handlers receive the
 * untouched web Request (Next parses no body here), so the webhook is verified over its exact bytes.
 * PUBLIC_BASE_URL must end in /bnpl: the service signs the webhook URL as registered.
 */
import { market } from '../../../lib/market';
import { counted } from '../../../lib/requests';

// Never prerendered or cached: every request reaches the market.
export const dynamic = 'force-dynamic';

const handle = (request: Request) =>
  counted(async () => (await market()).handle(request, { basePath: '/bnpl' }));

export {
  handle as DELETE,
  handle as GET,
  handle as HEAD,
  handle as OPTIONS,
  handle as PATCH,
  handle as POST,
  handle as PUT,
};
