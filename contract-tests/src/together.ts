/**
 * Requests that race (`ContractHttp.together`): each racer's first request is held at its last byte
 * (http-transport.ts, `HeldLastByte`) until every racer's is, then all are released at once. Which
 * request is a racer's first is known from the async context the racer runs in, so a check races
 * the same helpers (postOrder, postAction, sendWebhook…) it sends one request with.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HeldLastByte } from './http-transport.js';

interface RacerSlot {
  taken: boolean;
  lastByte: HeldLastByte;
}

const racerSlot = new AsyncLocalStorage<RacerSlot>();

/**
 * How long the held requests wait, once all are held, before their last bytes go: time for the
 * market to accept each connection and read what was sent, so that only the last bytes are left
 * for it to read, all at once. Measured (five creates, 30 rounds each, new connections): the spread
 * of the moments five bodies were complete at a Python ThreadingHTTPServer was 2.8–6.6 ms median
 * sent as they came, 1.4–1.8 ms held and released at once after this pause; at a Node server 2.3–2.9
 * against 1.3 ms. Released at once without the pause, a Node market still met them one connection
 * at a time. Once per race: no cost worth counting in a certification.
 */
export const RACE_SETTLE_MS = 20;

/**
 * The held last byte for the first request of the racer this runs in; undefined outside a racer
 * and for its later requests (a repeat after a reset, a follow-up read).
 */
export function takeRacerSlot(): HeldLastByte | undefined {
  const slot = racerSlot.getStore();
  if (slot === undefined || slot.taken) return undefined;
  slot.taken = true;
  return slot.lastByte;
}

/**
 * Runs every racer, each in its own slot, and releases their first requests' last bytes together
 * once each is held. A racer that ends without sending (it failed first) counts as held, so none
 * waits for it. Racers must not wait for one another before their first request: a racer held at
 * its last byte answers nothing until every racer is held.
 */
export function runTogether<T>(racers: readonly (() => Promise<T>)[]): Promise<T[]> {
  let waiting = racers.length;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return Promise.all(
    racers.map((racer) => {
      let arrived = false;
      const held = () => {
        if (arrived) return;
        arrived = true;
        waiting -= 1;
        if (waiting === 0) setTimeout(release, RACE_SETTLE_MS);
      };
      const slot: RacerSlot = { taken: false, lastByte: { held, release: released } };
      return racerSlot.run(slot, async () => racer()).finally(held);
    }),
  );
}
