/**
 * Bearer tokens on the offer filtering endpoint are introspected at the service (WIRE §5) and the
 * answer is cached for the token's lifetime, so the service is asked once per token rather than
 * once per call. Concurrent first calls with one token share one introspection.
 */
import type { ServiceClient, TokenIntrospection } from '../service/types.js';

interface Entry {
  introspection: TokenIntrospection;
  expiresAt: number;
}

export interface TokenIntrospectionCacheOptions {
  scope: string;
  /** Used when the service gives no `exp`. */
  defaultTtlMs?: number;
  maxEntries?: number;
}

export class TokenIntrospectionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<TokenIntrospection | undefined>>();
  readonly #service: ServiceClient;
  readonly #now: () => number;
  readonly #scope: string;
  readonly #defaultTtlMs: number;
  readonly #maxEntries: number;

  constructor(service: ServiceClient, now: () => number, options: TokenIntrospectionCacheOptions) {
    this.#service = service;
    this.#now = now;
    this.#scope = options.scope;
    this.#defaultTtlMs = options.defaultTtlMs ?? 60_000;
    this.#maxEntries = options.maxEntries ?? 1_000;
  }

  /** The introspection of an active token carrying the scope, or undefined (answer 401). */
  async check(token: string, signal?: AbortSignal): Promise<TokenIntrospection | undefined> {
    const hit = this.#entries.get(token);
    if (hit && hit.expiresAt > this.#now()) return hit.introspection;
    if (hit) this.#entries.delete(token);
    let pending = this.#pending.get(token);
    if (!pending) {
      pending = this.#introspect(token, signal).finally(() => this.#pending.delete(token));
      this.#pending.set(token, pending);
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }

  async #introspect(token: string, signal?: AbortSignal): Promise<TokenIntrospection | undefined> {
    const introspection = await this.#service.introspectToken(token, this.#scope, signal ? { signal } : {});
    const now = this.#now();
    const scopes = (introspection.scope ?? '').split(/\s+/);
    const expiresAt = introspection.exp === undefined ? now + this.#defaultTtlMs : introspection.exp * 1000;
    // Inactive answers are not cached: a token may become active (clock skew at issue time).
    if (introspection.active !== true || !scopes.includes(this.#scope) || expiresAt <= now) return undefined;
    this.#evict(now);
    this.#entries.set(token, { introspection, expiresAt });
    return introspection;
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
