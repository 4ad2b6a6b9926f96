import { ACTION_ALLOWED_FROM, type OrderAction } from '../models/status.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../signature/message.js';

/** `APPROVED or DISBURSING`: the statuses an action starts from, as the protocol words them. */
const allowedFrom = (action: OrderAction) => ACTION_ALLOWED_FROM[action].join(' or ');

/**
 * The rules a market enforces that JSON Schema cannot say (sums, agreeing members, parsing beyond a
 * pattern, Unicode validity), by rule ID (docs/protocol.md): what each operation's `x-bnpl-rules`
 * lists and its description repeats, so a client knows why a body valid by the document can still
 * be refused. The route table says which rules each route enforces.
 */
export const RULES_BEYOND_SCHEMA: Readonly<Record<string, string>> = {
  'R-ORDER-01': 'total_amount.value equals the sum of the line subtotals',
  'R-ORDER-02': 'the total, unit prices and subtotals of an order share one currency',
  'R-LINE-05': 'each line’s subtotal.value equals quantity × unit_price.value',
  'R-LINE-06':
    'image_url and product_url parse as absolute URLs (WHATWG URL), not only start with http(s)://',
  'R-LINE-07': 'text members and path parameters hold no lone surrogate (only Unicode scalar values)',
  'R-EP-03': 'the same reference_id with different content is refused with 409',
  'R-EP-06': `cancel only an ${allowedFrom('cancel')} order (409 otherwise)`,
  'R-EP-08': `disburse only an ${allowedFrom('disburse')} order (409 otherwise)`,
  'R-EP-10': 'invoice.url parses as an absolute URL (WHATWG URL)',
  'R-EP-13': 'id is the signed-in user’s own (403 otherwise)',
  'R-CLAIM-09':
    'an ID is not the text of a missing value ("undefined", "null", "NaN", "[object Object]", any case)',
  'R-OFFER-07':
    'an IN_RANGE_CONDITION has a lower bound (min or value) and an upper bound (max or upper), lower ≤ upper',
  'R-OFFER-10':
    'a condition is well formed: an AND has subconditions or conditions (one, not empty), claim names are not blank, numeric operands are decimal strings or numbers, nesting is at most 16 levels',
  'R-WH-08': 'the four signature headers are present and well formed',
  'R-WH-09': 'X-Event-Timestamp is within the tolerance of the receiver’s clock',
  'R-WH-10': 'the signature verifies with the service’s public key',
};

/**
 * The words of docs/protocol.md each restatement above stands for: the statement its rule ID closes
 * holds them (backticks and emphasis aside). The restatements are worded for a client reading one
 * operation; these quotes tie them to the source, so test/openapi-rules.test.ts fails when the
 * protocol's statement changes and the restatement must be read again.
 */
export const PROTOCOL_WORDS: Readonly<Record<keyof typeof RULES_BEYOND_SCHEMA, string>> = {
  'R-ORDER-01': 'total_amount equals the sum of the line subtotals',
  'R-ORDER-02': 'every amount of an order (total, unit prices, subtotals) has the same currency',
  'R-LINE-05': 'subtotal = quantity × unit_price',
  'R-LINE-06': 'image_url and product_url are absolute http(s) URLs',
  'R-LINE-07': 'no text member or path parameter holds NUL, a control character or a lone surrogate',
  'R-EP-03': 'with different content → 409',
  'R-EP-06': `409 unless ${allowedFrom('cancel')}`,
  'R-EP-08': `409 unless ${allowedFrom('disburse')}`,
  'R-EP-10': 'url absolute http(s)',
  'R-EP-13': "id must be the authenticated user's own (403 otherwise)",
  'R-CLAIM-09': 'neither is the text of a missing value ("undefined", "null": 400)',
  'R-OFFER-07': 'a range with one bound is malformed',
  'R-OFFER-10':
    'A malformed condition (unknown kind, no claim, one or no range bound, an AND whose subconditions is absent, null or []) is a 400',
  'R-WH-08': 'the four headers present and well formed, algorithm EdDSA',
  'R-WH-09': `timestamp within ±${DEFAULT_TOLERANCE_SECONDS} s of the receiver's clock`,
  'R-WH-10': 'Ed25519 verification with a key from configuration',
};
