/**
 * `createPersistentSandbox`: a sandbox whose records survive a restart. It loads what the record
 * store holds, then writes each change back in one transaction: a request's changes before its
 * answer leaves (so a market that stored an order ID never hears of one the service could forget),
 * changes made by the sandbox's own timers (auto scenario, CANCELING → CANCELED, webhook retries)
 * right after the timer ran or the webhook attempt finished, and changes made through the JS API
 * right after the call (`flush()` waits for them). The plain `createSandbox`
 * stays in memory, for tests and msw.
 */
import { KitError } from '@bnpl-kit/core';
import { problemResponse } from '@bnpl-kit/core/wire';
import { type Clock, isManualClock, systemClock } from '../clock.js';
import type { SandboxOptions } from '../options.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { StatePersister } from './persister.js';
import { restoreState, stateToRecords } from './records.js';
import type { SandboxRecordStore } from './types.js';

export interface PersistentSandbox extends Sandbox {
  /** Resolves once every change made so far is stored. */
  flush(): Promise<void>;
  /** Stores what is left, then stops every timer. */
  closeAndFlush(): Promise<void>;
}

export interface PersistentSandboxOptions extends SandboxOptions {
  records: SandboxRecordStore;
  /** Told when writing failed (the change is retried with the next one). Default: console.error. */
  onPersistError?: (error: unknown) => void;
}

/** The same clock, but every timer callback is followed by `after` (the timer may have changed state). */
function observedClock(clock: Clock, after: () => void): Clock {
  const wrapped: Clock = Object.create(clock) as Clock;
  wrapped.setTimeout = (callback, ms) =>
    clock.setTimeout(() => {
      try {
        callback();
      } finally {
        after();
      }
    }, ms);
  return wrapped;
}

export async function createPersistentSandbox(options: PersistentSandboxOptions): Promise<PersistentSandbox> {
  const { records, onPersistError = (error) => console.error('sandbox: could not store its state', error) } =
    options;
  const loaded = await records.load();
  let persister: StatePersister | undefined;
  const background = () => {
    persister?.flush().catch(onPersistError);
  };
  const clock = options.clock ?? systemClock;
  const inner = createSandbox({
    ...options,
    // A manual clock keeps its identity (tests call tick()); they flush explicitly.
    clock: isManualClock(clock) ? clock : observedClock(clock, background),
    onBackgroundChange: () => {
      background();
      options.onBackgroundChange?.();
    },
  });
  const { deliveries } = restoreState(inner.state, loaded);
  persister = new StatePersister(
    () => stateToRecords(inner.state, inner.webhooks.list(), inner.clock.now()),
    records,
  );
  persister.markWritten(loaded);
  inner.webhooks.restore(deliveries);
  const store = persister;
  // The configured organisations (and anything new) are written at once.
  await store.flush();

  const afterApi =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } finally {
        background();
      }
    };

  return {
    ...inner,
    async handle(request, handleOptions) {
      const response = await inner.handle(request, handleOptions);
      try {
        await store.flush();
      } catch (error) {
        onPersistError(error);
        // The change happened in memory but is not stored: the caller must not rely on it. Its
        // own database failing is what it says (503 store_unavailable), so that an in-process
        // caller sharing that database can tell its disk from the service (`createSandboxFetch`).
        return problemResponse(
          new KitError('store_unavailable', 'The sandbox could not store this change; try again', {
            cause: error,
          }),
        );
      }
      return response;
    },
    organizations: {
      ...inner.organizations,
      upsert: afterApi(inner.organizations.upsert),
      update: afterApi(inner.organizations.update),
      remove: afterApi(inner.organizations.remove),
    },
    orders: {
      ...inner.orders,
      approve: afterApi(inner.orders.approve),
      reject: afterApi(inner.orders.reject),
      confirmReadiness: afterApi(inner.orders.confirmReadiness),
      markPaid: afterApi(inner.orders.markPaid),
    },
    transactions: {
      ...inner.transactions,
      upsert: afterApi(inner.transactions.upsert),
      completeDispute: afterApi(inner.transactions.completeDispute),
    },
    flush: () => store.flush(),
    async closeAndFlush() {
      inner.close();
      await store.flush();
    },
  };
}
