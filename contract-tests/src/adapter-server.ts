/** What a started adapter server is, apart from the frameworks (src/adapters.ts imports those). */

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
