/**
 * Bearer tokens on the offer filtering endpoint are introspected at the service (WIRE §5) and the
 * answer is cached for the token's lifetime, so the service is asked once per token rather than
 * once per call. Concurrent first calls with one token share one introspection.
 *
 * Invented tokens must not make the market an amplifier (one call in, one call to the service
 * out): a token the service said is not active is remembered briefly, and each client may make the
 * market introspect only a bounded number of unknown tokens (a token bucket; an attempt whose token
 * turns out active is given back, so the service itself is never held back by its own tokens).
 * Past the bound the caller gets `429 too_many_requests` with `Retry-After`, before any call.
 */
import { KitError } from '../errors.js';
import type { ServiceClient, TokenIntrospection } from '../service/types.js';
import { ClientBudget } from './client-budget.js';

interface Entry {
  introspection: TokenIntrospection;
  expiresAt: number;
}

export interface TokenIntrospectionCacheOptions {
  scope: string;
  /** Used when the service gives no `exp`. */
  defaultTtlMs?: number;
  maxEntries?: number;
  /** How long a token the service called inactive is answered 401 without asking again. */
  negativeTtlMs?: number;
  /** Unknown tokens one client may have introspected at once, then `refillPerSecond` more. */
  burst?: number;
  refillPerSecond?: number;
}

/** Tokens longer than this are never remembered as inactive (memory stays bounded per entry). */
const MAX_REMEMBERED_TOKEN = 512;

export class TokenIntrospectionCache {
  readonly #entries = new Map<string, Entry>();
  /** Inactive tokens → until when they are answered 401 from memory. */
  readonly #inactive = new Map<string, number>();
  readonly #pending = new Map<string, Promise<TokenIntrospection | undefined>>();
  readonly #service: ServiceClient;
  readonly #now: () => number;
  readonly #scope: string;
  readonly #defaultTtlMs: number;
  readonly #maxEntries: number;
  readonly #negativeTtlMs: number;
  readonly #budget: ClientBudget;

  constructor(service: ServiceClient, now: () => number, options: TokenIntrospectionCacheOptions) {
    this.#service = service;
    this.#now = now;
    this.#scope = options.scope;
    this.#defaultTtlMs = options.defaultTtlMs ?? 60_000;
    this.#maxEntries = options.maxEntries ?? 1_000;
    this.#negativeTtlMs = options.negativeTtlMs ?? 10_000;
    this.#budget = new ClientBudget(now, {
      burst: options.burst ?? 20,
      refillPerSecond: options.refillPerSecond ?? 1,
    });
  }

  /**
   * The introspection of an active token carrying the scope, or undefined (answer 401). `client`
   * identifies the caller (its address) for the bound on unknown tokens; throws a 429 KitError
   * past it.
   */
  async check(token: string, signal?: AbortSignal, client = ''): Promise<TokenIntrospection | undefined> {
    const now = this.#now();
    const hit = this.#entries.get(token);
    if (hit && hit.expiresAt > now) return hit.introspection;
    if (hit) this.#entries.delete(token);
    const inactiveUntil = this.#inactive.get(token);
    if (inactiveUntil !== undefined) {
      if (inactiveUntil > now) return undefined;
      this.#inactive.delete(token);
    }
    let pending = this.#pending.get(token);
    if (!pending) {
      const retryAfter = this.#budget.take(client);
      if (retryAfter > 0) {
        throw new KitError(
          'too_many_requests',
          'Too many unknown bearer tokens from this client; retry later',
          {
            headers: { 'retry-after': String(retryAfter) },
          },
        );
      }
      pending = this.#introspect(token, signal, client).finally(() => this.#pending.delete(token));
      this.#pending.set(token, pending);
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }

  async #introspect(
    token: string,
    signal: AbortSignal | undefined,
    client: string,
  ): Promise<TokenIntrospection | undefined> {
    const introspection = await this.#service.introspectToken(token, this.#scope, signal ? { signal } : {});
    const now = this.#now();
    const scopes = (introspection.scope ?? '').split(/\s+/);
    const expiresAt = introspection.exp === undefined ? now + this.#defaultTtlMs : introspection.exp * 1000;
    if (introspection.active !== true || !scopes.includes(this.#scope) || expiresAt <= now) {
      // Briefly: a token may become active (clock skew at issue time).
      this.#rememberInactive(token, now);
      return undefined;
    }
    this.#budget.refund(client);
    this.#evict(now);
    this.#entries.set(token, { introspection, expiresAt });
    return introspection;
  }

  #rememberInactive(token: string, now: number): void {
    if (token.length > MAX_REMEMBERED_TOKEN) return;
    if (this.#inactive.size >= this.#maxEntries * 10) {
      const oldest = this.#inactive.keys().next().value;
      if (oldest !== undefined) this.#inactive.delete(oldest);
    }
    this.#inactive.set(token, now + this.#negativeTtlMs);
  }

  #evict(now: number): void {
    if (this.#entries.size < this.#maxEntries) return;
    for (const [token, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(token);
    // Still full: drop the oldest insertions (Map iterates in insertion order).
    for (const token of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(token);
    }
  }
}
