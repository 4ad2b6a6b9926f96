/**
 * What certify finds in an error body (WIRE §2, R-ERR-13): each runtime's way of leaking a stack,
 * a path, SQL or a driver's message, and none of the texts a conforming market writes.
 */
import { describe, expect, it } from 'vitest';
import { findInternals } from '../src/support/internals.js';

const LEAKS: [string, string][] = [
  [
    'Node',
    "TypeError: Cannot read properties of undefined (reading 'id')\n    at createOrder (/srv/app/orders.js:41:13)",
  ],
  ['Python', 'Traceback (most recent call last):\n  File "/app/main.py", line 12, in create'],
  ['Python', "ValueError: invalid literal for int() with base 10: 'abc'"],
  ['Python', 'sqlalchemy.exc.IntegrityError: (psycopg2.errors.UniqueViolation)'],
  ['Java', 'org.springframework.dao.DataIntegrityViolationException: could not execute statement'],
  ['Java', 'java.lang.IllegalStateException'],
  ['Go', 'panic: runtime error: invalid memory address or nil pointer dereference'],
  ['Ruby', "NoMethodError: undefined method `[]' for nil:NilClass"],
  ['Ruby', 'ActiveRecord::RecordNotUnique'],
  [
    'PHP',
    "SQLSTATE[23000]: Integrity constraint violation: 1062 Duplicate entry 'r1' for key 'reference_id'",
  ],
  ['PHP', 'Stack trace:\n#0 index.php(12): create()'],
  ['.NET', 'System.NullReferenceException: Object reference not set to an instance of an object.'],
  ['.NET', '   at Market.Orders.Create(OrderRequest request) in Orders.cs:line 42'],
  ['Rust', "thread 'tokio-runtime-worker' panicked at src/handlers.rs:42:17"],
  ['Elixir', '** (Ecto.ConstraintError) constraint error when attempting to insert struct'],
  ['SQLite', 'UNIQUE constraint failed: orders.reference_id'],
  ['MySQL', "You have an error in your SQL syntax; check the manual near 'x' at line 1"],
  ['SQL Server', "Violation of PRIMARY KEY constraint 'PK_orders'"],
  ['Oracle', 'ORA-00001: unique constraint (MARKET.ORDERS_PK) violated'],
];

const CLEAN = [
  'Order create request is invalid: order_lines[0].subtotal.value: must equal quantity × unit_price (300000)',
  'total_amount.value must be a string of digits, no leading zeros, at most 15',
  'No order o-123 is known to this market',
  'at least 1 line, at most 500',
  'reference_id ref-1 was used before with other content',
  'Đơn hàng không hợp lệ: tên sản phẩm quá dài',
  'https://github.com/bnpl-kit/bnpl-kit/blob/main/docs/errors.md#validation_failed',
  'The BNPL service refused the order: INVALID_REQUEST',
  'X-Event-Timestamp must be YYYY-MM-DDTHH:MM:SSZ',
  'Send JSON as application/json',
];

describe('findInternals', () => {
  it.each(LEAKS)('finds what a %s market leaks: %s', (_runtime, text) => {
    expect(findInternals(text)).not.toEqual([]);
  });

  it.each(CLEAN)('finds nothing in a conforming message: %s', (text) => {
    expect(findInternals(text)).toEqual([]);
  });
});
