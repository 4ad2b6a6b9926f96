/**
 * What an adapter entry and a started adapter server are, apart from the frameworks (src/adapters.ts
 * imports those; apps/nextjs-example/test/next-adapter.ts is the Next.js entry).
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Market } from '@bnpl-kit/core';

/**
 * A body parser mounted globally before the router: `keeps-raw` keeps the raw bytes where the
 * adapter looks for them (`express.json({ verify })`, `koa-bodyparser`, Hono's text cache);
 * `discards-raw` leaves only the parsed object.
 */
export type GlobalJsonParser = 'none' | 'keeps-raw' | 'discards-raw';

export interface StartOptions {
  /** Where the kit is mounted; `''` for the root. Default `/bnpl`. */
  mountPath?: string;
  globalJsonParser?: GlobalJsonParser;
}

export interface StartedServer {
  /** Where the kit is mounted: origin + mount path, e.g. `http://127.0.0.1:41234/bnpl`. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

export interface AdapterEntry {
  /** `frameworkName`, or `<frameworkName>-<platform>` for a framework that runs on several. */
  name: string;
  frameworkName: string;
  platform?: string;
  /**
   * The kit reads its requests' bytes before any parser of the app can (Fastify's encapsulated
   * content-type parser, Nest's early mount, Next's route handlers): a global parser that keeps no
   * raw copy cannot break its webhooks.
   */
  rawWhateverTheParser?: boolean;
  /**
   * How a market on this framework tells its callers apart (`createMarket({ clientKey })`) where the
   * handler sees no socket: Next's route handlers get a plain Request, and Next's server puts the
   * peer address in `X-Forwarded-For` when no proxy did (one hop, read from the right).
   */
  clientKey?: (request: Request) => string | undefined;
  start(market: Market, options?: StartOptions): Promise<StartedServer>;
}

/**
 * Listens on 127.0.0.1 (ephemeral port) unless the framework already did, and describes the started
 * server: its origin, the kit's URL under `mountPath`, and a close that drops kept-alive connections.
 */
export async function listen(server: Server, mountPath: string): Promise<StartedServer> {
  if (!server.listening) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}${mountPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
