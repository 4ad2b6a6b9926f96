/**
 * Next.js calls `register` once per server process at start. On the Node.js runtime it drains on
 * SIGTERM/SIGINT (lib/market.ts's `drain`) and exits 0 once drained. Next's own handler would exit
 * 143 at once, so `next start` runs with NEXT_MANUAL_SIG_HANDLE=true (package.json's `start`).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { drainOnSignals } = await import('@bnpl-kit/store/worker');
  const { consoleLogger } = await import('@bnpl-kit/core');
  const { drain } = await import('./lib/market');
  if (!process.env.NEXT_MANUAL_SIG_HANDLE) {
    consoleLogger.warn(
      {},
      'NEXT_MANUAL_SIG_HANDLE is not set: Next exits 143 on SIGTERM without draining; set it to true',
    );
  }
  // As the reference servers: how long /readyz answers 503 while requests are still served.
  const grace = process.env.DRAIN_GRACE_MS ?? '5000';
  if (!/^\d{1,6}$/.test(grace))
    throw new Error(`DRAIN_GRACE_MS must be milliseconds (0-999999), got ${grace}`);
  const graceMs = Number(grace);
  drainOnSignals(drain, { graceMs, exit: true, logger: consoleLogger });
}
