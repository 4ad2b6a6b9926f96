/**
 * The `tx` handed to a transaction's work is usable only while that transaction is open. Work can
 * outlive it (a hook past its timeout, a promise nobody awaited): on a pooled connection its late
 * statement would run in whatever the connection does next, on PGlite outside any transaction, and
 * commit on its own. Each transaction gets its own client that refuses once the work has settled.
 */
import type { QueryResult, TransactionClient } from './types.js';

export class TransactionEndedError extends Error {
  constructor() {
    super(
      'This transaction has already ended (committed or rolled back): a statement on its `tx` ' +
        'after that would run outside it. Await all work inside the transaction callback.',
    );
    this.name = 'TransactionEndedError';
  }
}

export interface ScopedTransactionClient extends TransactionClient {
  /** From now on every call throws; called as soon as the work settles, before COMMIT/ROLLBACK. */
  end(): void;
}

export function scopedTransactionClient(inner: TransactionClient): ScopedTransactionClient {
  let open = true;
  return {
    query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      if (!open) return Promise.reject(new TransactionEndedError());
      return inner.query<R>(sql, params);
    },
    exec(sql: string): Promise<void> {
      if (!open) return Promise.reject(new TransactionEndedError());
      return inner.exec(sql);
    },
    end() {
      open = false;
    },
  };
}
