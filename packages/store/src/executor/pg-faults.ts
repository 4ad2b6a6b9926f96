/**
 * Which `pg` failures are the database being unreachable or overloaded (a 503 the caller may
 * retry: the service redelivers webhooks, a market system retries its POST), as opposed to a query
 * that is wrong (a 500, a bug). Only the first kind is translated; SQLSTATEs the repositories act
 * on (unique violations) pass through untouched.
 */
import { KitError } from '@bnpl-kit/core';
import { sqlState } from '../repositories/pg-errors.js';

// Node socket failures (ECONNREFUSED, …) and SQLSTATE classes 08 (connection), 53 (resources),
// 57P0x (server shutting down, `pg_terminate_backend`), 57014 (statement timeout), 40001/40P01
// (serialization failure, deadlock: transient by definition).
const TRANSIENT_STATES = /^(08|53|57P0|57014$|40001$|40P01$)/;
const NODE_NETWORK = /^(ECONN|EPIPE$|ETIMEDOUT$|EHOSTUNREACH$|ENETUNREACH$|ENOTFOUND$|EAI_AGAIN$)/;
// pg's own messages for a connection lost, never made, or a client-side query timeout.
const PG_CONNECTION_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|^timeout expired$|Query read timeout|Client has encountered a connection error|Connection ended|not queryable/i;

export function isUnavailable(err: unknown): boolean {
  if (err instanceof KitError) return err.code === 'store_unavailable';
  const state = sqlState(err);
  if (state !== undefined) return TRANSIENT_STATES.test(state) || NODE_NETWORK.test(state);
  return err instanceof Error && PG_CONNECTION_MESSAGE.test(err.message);
}

/** Rethrows an unavailability as the kit's `store_unavailable` (503); anything else unchanged. */
export function translateFault(err: unknown, location: string): unknown {
  if (err instanceof KitError || !isUnavailable(err)) return err;
  return new KitError('store_unavailable', `The database at ${location} is unavailable`, { cause: err });
}
