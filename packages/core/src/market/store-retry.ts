/**
 * One more try when the store reports its database unavailable (`store_unavailable`): a pooled
 * connection the server had just ended fails the statement, and the next attempt gets a fresh one.
 * Only for work that is safe to repeat: a webhook transaction (it rolled back, or it committed and
 * the repeat finds the event ID already processed), reads, and the order insert (idempotent on
 * `reference_id`). A database that stays away still answers 503 after the second failure.
 */
import { isKitError } from '../errors.js';

export async function retryUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isKitError(error, 'store_unavailable')) throw error;
    return work();
  }
}
