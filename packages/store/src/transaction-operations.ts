/**
 * The `tx` of `store.transaction`, built per transaction but filled in lazily. Every transaction
 * needs its own `tx` (one kept past its transaction must not act in the next), and building all
 * ~30 operations as closures up front cost a webhook with a `handleWebhook` hook 4–6 % of its CPU
 * (bench/profile-webhook.ts) although it calls one or two of them. So each operation is a getter on
 * a shared prototype that builds its repository's group (orders, users, jobs, …) on first use, on
 * this transaction's connection. The getters are enumerable: `for…in` lists every operation.
 */
import type { Queryable } from './executor/types.js';
import { type JobContext, jobOps } from './repositories/jobs.js';
import { orderReads, orderTransactionOps } from './repositories/orders.js';
import { claimStaleOrders } from './repositories/reconciliation.js';
import { type PruneOptions, pruneFinished } from './repositories/retention.js';
import { userOps } from './repositories/users.js';

type Group = (q: Queryable, jobs: JobContext) => object;

/** The repositories' operations, in groups built together; `operations` below is the first five. */
export const OPERATION_GROUPS: readonly Group[] = [
  (q) => orderReads(q),
  (q) => userOps(q),
  (q, jobs) => jobOps(q, jobs),
  (q, jobs) => ({
    claimStaleOrders: (options: { staleForMs: number; limit: number }) => claimStaleOrders(q, jobs, options),
    pruneFinished: (olderThanMs: number, options?: PruneOptions) =>
      pruneFinished(q, jobs, olderThanMs, options),
  }),
  // Bound: a connection may keep its state on `this` (the pg transaction client does).
  (q) => ({ query: q.query.bind(q) as Queryable['query'] }),
];
const TRANSACTION_GROUPS: readonly Group[] = [...OPERATION_GROUPS, (q) => orderTransactionOps(q)];

const STATE = Symbol('transaction operations');
interface State {
  q: Queryable;
  jobs: JobContext;
  built: (Record<string, unknown> | undefined)[];
}
type Holder = { [STATE]: State };

const NEVER: Queryable = { query: () => Promise.reject(new Error('not a connection')) };
const prototype: object = {};
TRANSACTION_GROUPS.forEach((group, index) => {
  // The names, read once from a group built on a connection that is never queried.
  for (const name of Object.keys(
    group(NEVER, { now: undefined, retry: undefined } as unknown as JobContext),
  )) {
    Object.defineProperty(prototype, name, {
      enumerable: true,
      get(this: Holder) {
        const state = this[STATE];
        let built = state.built[index];
        if (built === undefined) {
          built = group(state.q, state.jobs) as Record<string, unknown>;
          state.built[index] = built;
        }
        return built[name];
      },
    });
  }
});

/** A frozen `tx` on `q`; its operations are built when first read. */
export function transactionOperations<T>(q: Queryable, jobs: JobContext): T {
  const tx = Object.create(prototype) as Holder;
  Object.defineProperty(tx, STATE, { value: { q, jobs, built: [] } satisfies State });
  return Object.freeze(tx) as T;
}
