/**
 * A framework adapter as a target of the adapter behaviour suite (adapter-behaviour-suite.ts): each
 * market built in this process and served by that framework.
 */
import type { Market } from '@bnpl-kit/core';
import type { AdapterEntry, StartedServer } from '../../src/adapter-server.js';
import { createBehaviourMarket } from '../../src/testing/behaviour-market.js';
import type { BehaviourTarget } from './adapter-behaviour-suite.js';

export function inProcess(adapter: AdapterEntry): BehaviourTarget {
  return {
    name: adapter.name,
    frameworkName: adapter.frameworkName,
    ...(adapter.platform && { platform: adapter.platform }),
    ...(adapter.rawWhateverTheParser && { rawWhateverTheParser: true }),
    async host(spec, options) {
      const built = createBehaviourMarket(spec);
      const server = await adapter.start(built.market, options);
      const extras: StartedServer[] = [];
      const serve = async (market: Market, extraOptions = options) => {
        const extra = await adapter.start(market, extraOptions);
        extras.push(extra);
        return extra;
      };
      return {
        url: server.url,
        origin: server.origin,
        webhookUrl: built.market.webhookUrl,
        maxBodyBytes: built.market.maxBodyBytes,
        orderStatus: async (id) => (await built.store.findOrderById(id))?.status,
        events: async () => built.events,
        commitments: async (localId) => built.commitments.get(localId),
        setNow: async (now) => built.setNow(now),
        async watchNext() {
          let markSeen!: () => void;
          const seen = new Promise<void>((resolve) => {
            markSeen = resolve;
          });
          let answer!: (status: Promise<number>) => void;
          const answered = new Promise<number>((resolve) => {
            answer = resolve;
          });
          // On a server of its own: the main one keeps the market's fast path (answererOf).
          const watched: Market = {
            ...built.market,
            ownsPath: (path) => built.market.ownsPath(path),
            handle(request, handleOptions) {
              const response = built.market.handle(request, handleOptions);
              answer(response.then((r) => r.status));
              markSeen();
              return response;
            },
          };
          return { url: (await serve(watched)).url, seen, answered };
        },
        alsoServe: (extraOptions) => serve(built.market, extraOptions),
        close: async () => {
          await Promise.all([server, ...extras].map((s) => s.close()));
        },
      };
    },
  };
}
