/**
 * The access token, fetched with the API key and shared by every call. It is reused until shortly
 * before it expires, and when it must be renewed exactly one request does so: concurrent callers
 * await the same promise instead of each spending a token request (single flight).
 */

export interface AccessToken {
  value: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Renew 60 s before expiry (WIRE §6); a token that lives less than 2 min is renewed at half-life. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;

export class AccessTokenCache {
  #token: AccessToken | undefined;
  #inflight: Promise<string> | undefined;
  readonly #fetchToken: () => Promise<{ value: string; expiresInSeconds: number }>;
  readonly #now: () => number;

  constructor(fetchToken: () => Promise<{ value: string; expiresInSeconds: number }>, now: () => number) {
    this.#fetchToken = fetchToken;
    this.#now = now;
  }

  /** A valid token: the cached one while fresh, otherwise the result of the one renewal in flight. */
  get(): Promise<string> {
    const token = this.#token;
    if (token && this.#now() < token.expiresAt) return Promise.resolve(token.value);
    this.#inflight ??= this.#renew().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  /** Forgets `value` after the service refused it, unless a newer token already replaced it. */
  invalidate(value: string): void {
    if (this.#token?.value === value) this.#token = undefined;
  }

  async #renew(): Promise<string> {
    const started = this.#now();
    const { value, expiresInSeconds } = await this.#fetchToken();
    const lifetime = expiresInSeconds * 1000;
    const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, lifetime / 2);
    // Counted from the request's start: the service's clock started before our answer arrived.
    this.#token = { value, expiresAt: started + lifetime - margin };
    return value;
  }
}
