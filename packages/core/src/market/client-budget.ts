/**
 * A token bucket per client: `burst` attempts at once, refilled at `refillPerSecond`. Used to bound
 * how many unknown bearer tokens one client can make the market introspect at the service, so
 * invented tokens cannot turn the market into an amplifier. Memory is bounded: past `maxClients`
 * the least recently seen client is forgotten (a forgotten client starts with a full bucket, which
 * only ever errs towards serving).
 */

interface Bucket {
  tokens: number;
  at: number;
}

export interface ClientBudgetOptions {
  burst: number;
  refillPerSecond: number;
  maxClients?: number;
}

export class ClientBudget {
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  readonly #burst: number;
  readonly #rate: number;
  readonly #maxClients: number;

  constructor(now: () => number, options: ClientBudgetOptions) {
    this.#now = now;
    this.#burst = options.burst;
    this.#rate = options.refillPerSecond;
    this.#maxClients = options.maxClients ?? 10_000;
  }

  /** Takes one attempt for `client`: 0 when granted, else the seconds until one is available. */
  take(client: string): number {
    const bucket = this.#current(client);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#rate));
  }

  /** Gives an attempt back (it turned out legitimate). */
  refund(client: string): void {
    const bucket = this.#buckets.get(client);
    if (bucket) bucket.tokens = Math.min(this.#burst, bucket.tokens + 1);
  }

  #current(client: string): Bucket {
    const now = this.#now();
    let bucket = this.#buckets.get(client);
    if (bucket) {
      this.#buckets.delete(client);
      bucket.tokens = Math.min(this.#burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#rate);
      bucket.at = now;
    } else {
      bucket = { tokens: this.#burst, at: now };
      if (this.#buckets.size >= this.#maxClients) {
        const oldest = this.#buckets.keys().next().value;
        if (oldest !== undefined) this.#buckets.delete(oldest);
      }
    }
    // Re-inserted: the Map's order is the order clients were last seen.
    this.#buckets.set(client, bucket);
    return bucket;
  }
}
