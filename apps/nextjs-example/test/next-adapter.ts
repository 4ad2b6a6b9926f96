/**
 * This app as a framework adapter of the contract suite's tests (the shape of contract-tests'
 * src/adapters.ts entries): the app as `next build` left it, served by Next's programmatic
 * production server in this process, so the market a test builds is the one answering. It lives
 * here, not in that list, because it needs the build: this package's tests wait for it, the
 * contract suite's own do not.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  type AdapterEntry,
  listen,
  type StartedServer,
  type StartOptions,
} from '@bnpl-kit/contract-tests/test-support/adapter-entry.js';
import { clientKeyFromForwardedFor, type Market } from '@bnpl-kit/core';
import next from 'next';

const NEXT_APP = fileURLToPath(new URL('..', import.meta.url));
/** The market each in-process Next server answers with (lib/market.ts). */
const nextMarket = new AsyncLocalStorage<Market>();
let nextHandler: Promise<ReturnType<ReturnType<typeof next>['getRequestHandler']>> | undefined;

/** The route file sits at /bnpl; a root mount is mapped onto it. */
async function startNext(market: Market, options: StartOptions = {}): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  if (mountPath !== '' && mountPath !== '/bnpl')
    throw new Error(`the Next example serves /bnpl, not ${mountPath}`);
  (globalThis as Record<symbol, unknown>)[Symbol.for('bnpl-kit.nextjs-example.market-under-test')] = () =>
    nextMarket.getStore();
  nextHandler ??= (async () => {
    const app = next({ dir: NEXT_APP, dev: false, quiet: true });
    await app.prepare();
    return app.getRequestHandler();
  })();
  const handle = await nextHandler;
  const server = createServer((req, res) => {
    if (mountPath === '' && req.url !== '/health') req.url = `/bnpl${req.url}`;
    // Next must sit behind a proxy that appends the peer to X-Forwarded-For (Next itself only sets
    // the header when absent, so a client could write it): this server plays that proxy.
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].flat().filter(Boolean);
    req.headers['x-forwarded-for'] = forwarded.join(', ');
    nextMarket.run(market, () => void handle(req, res));
  });
  return listen(server, mountPath);
}

// Next.js has no adapter package: the App Router route handler is the plain fetch handler.
export const nextAdapter: AdapterEntry = {
  name: 'nextjs',
  frameworkName: 'nextjs',
  start: startNext,
  rawWhateverTheParser: true,
  clientKey: clientKeyFromForwardedFor({ trustedHops: 1 }),
};
