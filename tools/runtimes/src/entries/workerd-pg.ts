/**
 * workerd with the PostgreSQL store (`@bnpl-kit/store` over `pg`, whose sockets are Cloudflare's
 * `connect()` through `pg-cloudflare` under `nodejs_compat`). workerd binds a socket to the request
 * that opened it: a pool kept across requests fails the next request ("Cannot perform I/O on behalf
 * of a different request"), so each request opens its own one-connection store and closes it once
 * answered; the market itself lives across requests and reaches the request's store through an
 * AsyncLocalStorage. The schema is migrated before workerd starts (tools/runtimes/src/runtimes.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { openStore, type Store } from '@bnpl-kit/store';
import { handle, useStore } from '../app.js';

interface Env {
  DATABASE_URL: string;
  DATABASE_SCHEMA: string;
}

const current = new AsyncLocalStorage<Store>();
/** The store of the request being handled, as one object the market keeps. */
const perRequest = new Proxy({} as Store, {
  get(_, key) {
    const store = current.getStore();
    if (!store) throw new Error('no request store: the market was called outside a request');
    const value = store[key as keyof Store];
    return typeof value === 'function' ? value.bind(store) : value;
  },
});
useStore(perRequest);

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(p: Promise<unknown>): void }) {
    const store = await openStore({
      databaseUrl: env.DATABASE_URL,
      schema: env.DATABASE_SCHEMA,
      poolSize: 1,
      migrate: false,
      pooler: 'none',
    });
    try {
      return await current.run(store, () => handle(request));
    } finally {
      ctx.waitUntil(store.close());
    }
  },
};
