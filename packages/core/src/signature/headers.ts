/**
 * Reads the four signature headers from whatever the caller's framework hands over: a Fetch
 * `Headers`, Node's `IncomingHttpHeaders` (lower-case names, values `string | string[]`), or a
 * plain object with any capitalisation. Header names are case-insensitive (RFC 9110 §5.1).
 */
import { WebhookVerificationError } from './errors.js';
import { ALGORITHM_HEADER, EVENT_ID_HEADER, EVENT_TIMESTAMP_HEADER, SIGNATURE_HEADER } from './message.js';

export type HeaderValue = string | readonly string[] | number | undefined | null;

/** Anything header-shaped: Fetch `Headers`, Node `IncomingHttpHeaders`, or a plain record. */
export type WebhookHeadersInput =
  | Headers
  | { get(name: string): string | null }
  | Readonly<Record<string, HeaderValue>>;

export interface SignatureHeaders {
  signature: string;
  algorithm: string;
  eventId: string;
  timestamp: string;
}

const WANTED = ['signature', 'x-signature-algorithm', 'x-event-id', 'x-event-timestamp'] as const;
const DISPLAY = [SIGNATURE_HEADER, ALGORITHM_HEADER, EVENT_ID_HEADER, EVENT_TIMESTAMP_HEADER] as const;

function isGetter(input: WebhookHeadersInput): input is { get(name: string): string | null } {
  return typeof (input as { get?: unknown }).get === 'function';
}

function single(value: HeaderValue, index: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value.length === 0) return undefined;
  // A repeated signature header is ambiguous: which one was meant is exactly what an attacker
  // would like to choose, so refuse rather than pick.
  if (value.length > 1) {
    throw new WebhookVerificationError(
      'signature_malformed_header',
      `The ${DISPLAY[index]} header appears ${value.length} times; send it exactly once`,
    );
  }
  return value[0];
}

// The four names have distinct lengths, so most keys are rejected without lower-casing them.
function wantedIndex(key: string): number {
  const index =
    key.length === 9 ? 0 : key.length === 21 ? 1 : key.length === 10 ? 2 : key.length === 17 ? 3 : -1;
  return index >= 0 && key.toLowerCase() === (WANTED as readonly string[])[index] ? index : -1;
}

/** Fills `out[i]` for each wanted header in one pass over a plain object's keys. */
function fromRecord(record: Readonly<Record<string, HeaderValue>>, out: (string | undefined)[]): void {
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const index = wantedIndex(key);
    if (index < 0) continue;
    const value = single(record[key], index);
    if (value === undefined) continue;
    if (out[index] !== undefined && out[index] !== value) {
      throw new WebhookVerificationError(
        'signature_malformed_header',
        `The ${DISPLAY[index]} header is given twice with different capitalisation and values`,
      );
    }
    out[index] = value;
  }
}

/** Returns the four header values, or throws `signature_missing_header` naming every absent one. */
export function readSignatureHeaders(input: WebhookHeadersInput): SignatureHeaders {
  const values: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  if (isGetter(input)) {
    for (let i = 0; i < WANTED.length; i++) values[i] = input.get(WANTED[i]!) ?? undefined;
  } else {
    fromRecord(input as Readonly<Record<string, HeaderValue>>, values);
  }
  const [signature, algorithm, eventId, timestamp] = values;
  if (signature && algorithm && eventId && timestamp) return { signature, algorithm, eventId, timestamp };
  const missing = DISPLAY.filter((_, i) => !values[i]);
  throw new WebhookVerificationError(
    'signature_missing_header',
    `Missing webhook header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; a webhook from the service carries ${DISPLAY.join(', ')} (check that no proxy strips them)`,
    { extensions: { missing_headers: missing } },
  );
}
