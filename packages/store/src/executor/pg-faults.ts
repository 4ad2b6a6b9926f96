/**
 * Which `pg` failures are transient (the database unreachable, overloaded, refusing connections, or
 * a transaction that lost a race) as opposed to a query that is wrong (a 500, a bug). Every
 * transient failure becomes the kit's `store_unavailable` (503, `retryable`): nothing was written
 * (the transaction rolled back), core's store retry (`retryUnavailable`) tries once more on a fresh
 * connection, and the caller retries only 503s. SQLSTATEs the repositories act on (unique
 * violations) pass through untouched.
 */
import { KitError } from '@bnpl-kit/core';
import { sqlState } from '../repositories/pg-errors.js';

/** How the kit answers a transient failure class; everything else is a 500 (`internal`). */
export type FaultKind =
  /** The database cannot be reached or will not take work now: 503, retry later. */
  | 'unavailable'
  /** The transaction lost a race and rolled back: 503 after one more try; a repeat succeeds. */
  | 'conflict'
  /** A statement ran past `statement_timeout` (overload or lock waits) and was cancelled: 503. */
  | 'timeout';

export interface TransientClass {
  /** A SQLSTATE, or a two-character class (`08`) matching every code in it. */
  state: string;
  /** When the code alone is too broad: the server's message must match. */
  message?: RegExp;
  kind: FaultKind;
  reason: string;
}

/**
 * The one table of transient SQLSTATEs (PostgreSQL Appendix A). `docs/operations.md` lists the
 * same classes; `test/faults.test.ts` provokes each on a real PostgreSQL.
 */
export const TRANSIENT_SQLSTATES: readonly TransientClass[] = [
  { state: '08', kind: 'unavailable', reason: 'connection exception: the connection failed or was lost' },
  {
    state: '53',
    kind: 'unavailable',
    reason: 'insufficient resources: disk full, out of memory, too many connections',
  },
  {
    state: '57P01',
    kind: 'unavailable',
    reason: 'admin shutdown: the server is stopping, or pg_terminate_backend',
  },
  {
    state: '57P02',
    kind: 'unavailable',
    reason: 'crash shutdown: another backend crashed, the server is restarting',
  },
  {
    state: '57P03',
    kind: 'unavailable',
    reason: 'cannot connect now: the server is starting up or in recovery',
  },
  {
    state: '55000',
    // 55000 (object not in prerequisite state) is mostly a bug; only this message is an outage.
    message: /not currently accepting connections/i,
    kind: 'unavailable',
    reason: 'the database refuses connections (ALTER DATABASE … ALLOW_CONNECTIONS false)',
  },
  { state: '40001', kind: 'conflict', reason: 'serialization failure: retry the transaction' },
  { state: '40P01', kind: 'conflict', reason: 'deadlock detected: this transaction was chosen to roll back' },
  { state: '57014', kind: 'timeout', reason: 'statement timeout: the statement ran past statement_timeout' },
];

// Node socket failures (ECONNREFUSED, …): the database cannot be reached at all.
const NODE_NETWORK = /^(ECONN|EPIPE$|ETIMEDOUT$|EHOSTUNREACH$|ENETUNREACH$|ENOTFOUND$|EAI_AGAIN$)/;
// pg's own message when a statement's answer took longer than the client-side `query_timeout`.
const PG_READ_TIMEOUT = /Query read timeout/i;
// pg's own messages for a connection lost, never made, or a client-side query timeout.
const PG_CONNECTION_MESSAGE = new RegExp(
  `Connection terminated|timeout exceeded when trying to connect|^timeout expired$|${PG_READ_TIMEOUT.source}|Client has encountered a connection error|Connection ended|not queryable`,
  'i',
);

/** The transient class of a failure, or undefined when it is not one (a 500). */
export function transientClass(err: unknown): TransientClass | undefined {
  const state = sqlState(err);
  const message = err instanceof Error ? err.message : '';
  if (state !== undefined) {
    if (NODE_NETWORK.test(state))
      return { state, kind: 'unavailable', reason: 'the database cannot be reached' };
    return TRANSIENT_SQLSTATES.find(
      (c) =>
        (c.state.length === 2 ? state.startsWith(c.state) : state === c.state) &&
        (c.message === undefined || c.message.test(message)),
    );
  }
  if (PG_CONNECTION_MESSAGE.test(message)) {
    return {
      state: '',
      kind: 'unavailable',
      reason: 'the connection to the database was lost or never made',
    };
  }
  return undefined;
}

export function isUnavailable(err: unknown): boolean {
  if (err instanceof KitError) return err.code === 'store_unavailable';
  return transientClass(err) !== undefined;
}

/**
 * Unavailable because the connection was gone or went away, not because the statement ran past the
 * client-side read timeout: on another connection it may succeed at once, where a statement that ran
 * that long would only run that long again.
 */
export function isConnectionLost(err: unknown): boolean {
  return isUnavailable(err) && !(err instanceof Error && PG_READ_TIMEOUT.test(err.message));
}

/** Rethrows a transient failure as the kit's `store_unavailable` (503); anything else unchanged. */
export function translateFault(err: unknown, location: string): unknown {
  if (err instanceof KitError) return err;
  if (transientClass(err) === undefined) return err;
  // The class and reason stay in `cause` (logged), not in the client's problem detail.
  return new KitError('store_unavailable', `The database at ${location} is unavailable`, { cause: err });
}
