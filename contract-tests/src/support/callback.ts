/**
 * Where the BNPL redirect sends the browser must be a page someone serves: certify configures
 * BNPL_CALLBACK_URL, and a market that does not serve it sends every buyer who paid to a "not found".
 * Not a rule of the protocol (the page is the shop's), so advice in the report, never a failure.
 */
import type { CheckContext } from '../types.js';

/** Follows `location` as a browser would, when it is on the market's origin; advises on a 404 or no answer. */
export async function adviseUnservedCallback(ctx: CheckContext, location: string): Promise<void> {
  // Another origin (the shop's own site) may not be reachable from where certify runs.
  if (new URL(location).origin !== new URL(ctx.marketUrl).origin) return;
  const fix =
    'serve a page there (where the buyer lands after the BNPL flow), or start the market and certify with a BNPL_CALLBACK_URL it serves (certify --callback-url)';
  try {
    const landing = await ctx.http.send(location, { headers: { accept: 'text/html' }, timeoutMs: 5000 });
    if (landing.status === 404 || landing.status === 405)
      ctx.advise(
        `BNPL_CALLBACK_URL is not served: the BNPL redirect leads to ${location}, which answered ${landing.status}; ${fix}`,
      );
  } catch {
    ctx.advise(
      `BNPL_CALLBACK_URL is not served: the BNPL redirect leads to ${location}, which did not answer; ${fix}`,
    );
  }
}
