/**
 * Database round trips of a benchmark server, counted where they happen: every query a `pg` client
 * sends is one round trip (a prepared statement's Parse, Bind, Execute and Sync go out together and
 * come back as one answer; BEGIN and COMMIT are one each), so wrapping `Client.prototype.query`
 * counts them for the baseline's pool and the kit's store alike. Turned on by the servers that use
 * PostgreSQL; the others report no count.
 */
import type pg from 'pg';

let count: number | undefined;

/** Counts every query of every client of `driver` (the `pg` module the server uses) from now on. */
export function countRoundTrips(driver: typeof pg): void {
  if (count !== undefined) return;
  count = 0;
  const query = driver.Client.prototype.query;
  driver.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count!++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
}

/** Round trips so far, or undefined when this server does not count them. */
export function roundTrips(): number | undefined {
  return count;
}
