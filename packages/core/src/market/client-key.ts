/**
 * `clientKey` for a market behind reverse proxies: the client address from `X-Forwarded-For`,
 * read from the right. Each proxy appends the address of the peer it saw, so the entries a client
 * can write itself are always on the left; only the last `trustedHops` entries come from proxies
 * you run. Reading the leftmost entry (the common mistake) lets any client pick its own key and
 * escape the per-client bounds.
 */
import { clientAddressOf, readHeader } from './body-hints.js';

export interface ForwardedForOptions {
  /**
   * How many proxies you run in front of the app, each appending to `X-Forwarded-For` (nginx's
   * `$proxy_add_x_forwarded_for`, a load balancer). The client is the entry this many from the
   * right. `0` means no proxy: the peer address alone.
   */
  trustedHops: number;
}

/**
 * A `createMarket({ clientKey })` function: the `X-Forwarded-For` entry `trustedHops` from the
 * right, or the peer address the Node bridge / Hono adapter saw when the header has fewer entries
 * (the request did not pass through every proxy you declared, so none of its entries is trusted).
 */
export function clientKeyFromForwardedFor(
  options: ForwardedForOptions,
): (request: Request) => string | undefined {
  const hops = options.trustedHops;
  if (!Number.isInteger(hops) || hops < 0) {
    throw new TypeError(`trustedHops must be a whole number ≥ 0, got ${String(hops)}`);
  }
  return (request) => {
    if (hops > 0) {
      // Repeated headers arrive joined with ", " (Fetch), which splitting handles alike.
      const entries = (readHeader(request, 'x-forwarded-for') ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      if (entries.length >= hops) return entries[entries.length - hops];
    }
    return clientAddressOf(request);
  };
}

/**
 * The `clientKey` a market gets from its configuration when it passes none: with `TRUST_PROXY`
 * (`trustProxyHops`) above 0, the `X-Forwarded-For` entry that many from the right; otherwise
 * undefined (the peer address).
 */
export function clientKeyFromConfig(config: {
  trustProxyHops?: number | undefined;
}): ((request: Request) => string | undefined) | undefined {
  const hops = config.trustProxyHops ?? 0;
  return hops > 0 ? clientKeyFromForwardedFor({ trustedHops: hops }) : undefined;
}
