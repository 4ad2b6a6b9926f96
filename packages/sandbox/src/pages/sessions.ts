/**
 * Page sessions: the credential of a hosted page's own endpoints (approve, reject, repay). A page
 * gets a fresh random token when it is rendered and sends it back in the `X-Page-Session` header.
 * Being a header, never a cookie, no other site can make a browser send it (no CSRF), and a token is
 * bound to what the page showed: one order, or one user's orders at one market.
 */
import { base64UrlEncode } from '@bnpl-kit/core/wire';
import type { Clock } from '../clock.js';

export const PAGE_SESSION_HEADER = 'x-page-session';
const TTL_MS = 30 * 60_000;
const MAX_SESSIONS = 10_000;

export type PageSessionScope =
  | { kind: 'bnpl'; orderId: string; credifyId: string | undefined }
  | { kind: 'passport'; credifyId: string; marketId: string };

interface StoredSession {
  scope: PageSessionScope;
  expiresAt: number;
}

export class PageSessions {
  readonly #sessions = new Map<string, StoredSession>();

  constructor(private readonly clock: Clock) {}

  create(scope: PageSessionScope): string {
    const now = this.clock.now();
    for (const [token, session] of this.#sessions) {
      if (session.expiresAt <= now) this.#sessions.delete(token);
    }
    // Insertion order is age order: a sandbox left open for days forgets the oldest first.
    while (this.#sessions.size >= MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done) break;
      this.#sessions.delete(oldest.value);
    }
    const token = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
    this.#sessions.set(token, { scope, expiresAt: now + TTL_MS });
    return token;
  }

  /** The scope of a live session from the request's header, or undefined. */
  read(request: Request): PageSessionScope | undefined {
    const token = request.headers.get(PAGE_SESSION_HEADER);
    if (!token) return undefined;
    const session = this.#sessions.get(token);
    if (!session) return undefined;
    if (session.expiresAt <= this.clock.now()) {
      this.#sessions.delete(token);
      return undefined;
    }
    return session.scope;
  }
}
