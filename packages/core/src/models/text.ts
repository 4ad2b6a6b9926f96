/**
 * Strings the market can keep. Everything a request carries ends up in PostgreSQL (text columns,
 * btree indexes) and in headers of calls to the service, so input that either cannot hold is
 * invalid input, refused at decode time with a 400, before the service is called: otherwise the
 * service would create an order whose local row then fails to insert (an orphan), or a webhook
 * whose effect cannot be stored would be retried forever.
 *
 * - NUL (U+0000): PostgreSQL `text` cannot store it.
 * - Lone surrogates: not Unicode scalar values; UTF-8 cannot encode them, so the driver would
 *   replace or refuse them and the stored value would differ from the one sent.
 * - Control characters (C0, DEL, C1): never part of an identifier or a product name; a CRLF would
 *   split a header or a log line.
 */
import * as z from 'zod';

/** Longest URL accepted in a body field (`image_url`, `product_url`, invoice `url`). */
export const MAX_URL_LENGTH = 2048;
/** Longest identifier or name (WIRE §1: 1..255 characters). */
export const MAX_TEXT_LENGTH = 255;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Whether any character is a C0 control (NUL included), DEL or a C1 control. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f)) return true;
  }
  return false;
}

/** Why a string cannot be kept, or `undefined` when it can. */
export function unstorableReason(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (it contains a lone surrogate)';
  if (hasControl(value))
    return 'must not contain control characters (line breaks, tabs, U+0000-U+001F, U+007F-U+009F)';
  return undefined;
}

/** Whether the string is storable text without control characters. */
export function isStorableText(value: string): boolean {
  return unstorableReason(value) === undefined;
}

/**
 * What JSON Schema can say of `unstorableReason`, for the documents: no C0 control (NUL included),
 * DEL or C1 control. A lone surrogate cannot be said in JSON Schema (a JSON string holding one is
 * not even Unicode): the documents list that part as a rule.
 */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

function refineStorable(schema: z.ZodString) {
  return schema
    .superRefine((value, ctx) => {
      const reason = unstorableReason(value);
      if (reason !== undefined) ctx.addIssue({ code: 'custom', message: reason });
    })
    .meta({ pattern: STORABLE_TEXT_PATTERN });
}

/** A required string of `min..max` characters that PostgreSQL and a header can both carry. */
export function safeText(max = MAX_TEXT_LENGTH, min = 1) {
  return refineStorable(
    z
      .string({ error: 'must be a string' })
      .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
      .max(max, { error: `must be at most ${max} characters` }),
  );
}

/**
 * What a missing value becomes when code turns it into text (`String(undefined)`, `${null}`, a shell
 * variable printed by `node -p`). Never a real identifier: storing one would look like a valid ID
 * and point at nobody ("credify_id": "undefined" once reached a demo user this way).
 */
const STRINGIFIED_NOTHING = new Set(['undefined', 'null', 'nan', '[object object]']);

/** Whether the text is a stringified missing value rather than an identifier. */
export function isStringifiedNothing(value: string): boolean {
  return STRINGIFIED_NOTHING.has(value.trim().toLowerCase());
}

/**
 * An identifier the market stores (a user's service ID, an order or transaction ID from the
 * service): storable text that is not a stringified missing value.
 */
export function identifierText(max = MAX_TEXT_LENGTH) {
  return safeText(max).refine((value) => !isStringifiedNothing(value), {
    error: 'must be an identifier, not the text of a missing value ("undefined", "null")',
  });
}

/**
 * What JSON Schema can say of `httpUrl`: an `http://` or `https://` prefix (any case) and storable
 * text after it. That the rest parses as a URL (WHATWG) is the format `uri`, which validators may
 * not check: the documents list it as a rule.
 */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\u0000-\\u001F\\u007F-\\u009F]+$';
const HTTP_URL = new RegExp(HTTP_URL_PATTERN, 'u');

/** An absolute http(s) URL of at most `MAX_URL_LENGTH` characters. */
export function httpUrl() {
  return z
    .string({ error: 'must be an absolute http(s) URL' })
    .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
    .refine((s) => HTTP_URL.test(s) && URL.canParse(s) && isStorableText(s), {
      error: 'must be an absolute http(s) URL',
    })
    .meta({ format: 'uri', pattern: HTTP_URL_PATTERN });
}
