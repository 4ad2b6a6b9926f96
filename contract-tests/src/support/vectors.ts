/**
 * The shared webhook vectors (fixtures/webhook-and-claims.json, a copy of core's) made usable against
 * a live market: each case is signed again for the target's webhook URL, with its timestamp moved
 * to "now" by the same offset, keeping the one defect that makes it what it is. The recipes say how
 * each case was broken, since a signature cannot be shifted in time without knowing that.
 */
import vectors from '../fixtures/webhook-and-claims.json' with { type: 'json' };

export interface WebhookVector {
  name: string;
  expect: 'valid' | 'invalid';
  reason?: string;
  webhook_url: string;
  now: string;
  headers: Record<string, string>;
  body_base64: string;
}

export type Defect =
  | { kind: 'none' }
  /** The signature covers another body than the one sent. */
  | { kind: 'tampered-body' }
  /** The signature covers the compact JSON; the sent body is the same JSON pretty-printed. */
  | { kind: 'reserialized-body' }
  | { kind: 'other-url' }
  /** Signed with one event ID, sent with another. */
  | { kind: 'swapped-event-id' }
  | { kind: 'other-key' }
  | { kind: 'drop-header'; header: string }
  /** Send the vector's own (bad) value of this header. */
  | { kind: 'vector-header'; header: string };

export const RECIPES: Readonly<Record<string, Defect>> = {
  'valid order status update': { kind: 'none' },
  'valid at exactly 300 s old': { kind: 'none' },
  'tampered body (status changed)': { kind: 'tampered-body' },
  'body re-serialized with spaces': { kind: 'reserialized-body' },
  'signed for another URL': { kind: 'other-url' },
  'event id swapped': { kind: 'swapped-event-id' },
  'signed by another key': { kind: 'other-key' },
  'timestamp 301 s old': { kind: 'none' },
  'timestamp 10 min in the future': { kind: 'none' },
  'missing Signature header': { kind: 'drop-header', header: 'Signature' },
  'missing X-Event-Id header': { kind: 'drop-header', header: 'X-Event-Id' },
  'algorithm is not EdDSA': { kind: 'vector-header', header: 'X-Signature-Algorithm' },
  'signature not base64url': { kind: 'vector-header', header: 'Signature' },
  'offer transaction event': { kind: 'none' },
};

export const FIXTURE_TOLERANCE_SECONDS: number = vectors.tolerance_seconds;

export const WEBHOOK_VECTORS: readonly WebhookVector[] = vectors.webhook_cases as WebhookVector[];

export function vectorSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function vectorBody(vector: WebhookVector): string {
  return new TextDecoder().decode(Uint8Array.from(atob(vector.body_base64), (c) => c.charCodeAt(0)));
}

/** Seconds the vector's timestamp lies before its `now` (negative: after). */
export function vectorAge(vector: WebhookVector): number {
  const timestamp = vector.headers['X-Event-Timestamp'];
  if (timestamp === undefined) return 0;
  return (Date.parse(vector.now) - Date.parse(timestamp)) / 1000;
}

/**
 * The age to use against a market with `tolerance` seconds: scaled from the fixture's window, and
 * kept 5 s clear of the edge, because over HTTP with whole-second timestamps "exactly 300 s" or
 * "301 s" cannot be hit reliably. Inside stays inside, outside stays outside.
 */
export function liveAge(vector: WebhookVector, tolerance: number): number {
  const scaled = vectorAge(vector) * (tolerance / FIXTURE_TOLERANCE_SECONDS);
  const sign = scaled < 0 ? -1 : 1;
  const magnitude = Math.abs(scaled);
  const margin = 5;
  if (vector.reason === 'timestamp') return sign * Math.max(magnitude, tolerance + margin);
  if (magnitude > tolerance - margin) return sign * Math.max(0, tolerance - margin);
  return scaled;
}
