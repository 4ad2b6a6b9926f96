/**
 * The invoice a disbursement carries to the service (WIRE §5 R-EP-10, R-EP-11), read from the
 * sandbox's record of the market's calls: the invoice in the disburse request body is the one the
 * service receives, field for field as the caller wrote it, on the first attempt and on a retry
 * after a lost answer. Its `issued_at` lies in the past and carries an offset, so a market that
 * dates the invoice itself (now), normalises the date or numbers the invoice its own way differs
 * from it at once: no retry has to wait for the clock.
 */
import { ensure, expectStatus } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { ServiceCallView } from '../sandbox/driver.js';
import { approvedOrder } from '../support/approvals.js';
import { canonicalJson } from '../support/canonical-json.js';
import { withFaults } from '../support/faults.js';
import { lostDisbursementAnswer } from '../support/lost-disbursement.js';
import { orderPath } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

/** The invoice in a recorded call's body, as JSON text (`(none)` when it carries none). */
export function sentInvoice(call: ServiceCallView): string {
  try {
    const body: unknown = JSON.parse(call.body ?? '');
    const invoice =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).invoice : undefined;
    return invoice === undefined ? '(none)' : canonicalJson(invoice);
  } catch {
    return `(a body that is not JSON: ${(call.body ?? '').slice(0, 80)})`;
  }
}

/**
 * An invoice no market would generate: dated in the past, in another zone's offset and with a
 * fraction of a second (RFC 3339 allows both), numbered and linked per run.
 */
function requestInvoice(ctx: CheckContext): Record<string, string> {
  const number = ctx.unique('INV');
  return {
    number,
    url: `https://shop.example/invoices/${encodeURIComponent(number)}`,
    issued_at: '2024-02-29T23:59:58.25+07:00',
  };
}

function disburseWith(ctx: CheckContext, id: string, invoice: Record<string, string>): Promise<HttpExchange> {
  return ctx.http.send(orderPath(ctx, id, 'disburse'), {
    method: 'POST',
    json: { invoice },
    headers: { ...ctx.systemAuth },
  });
}

export const disburseInvoiceChecks: ContractCheck[] = [
  {
    id: 'service.disburse.invoice-as-sent',
    title:
      'The invoice of a disburse request reaches the service as sent (number, url, issued_at), on the first attempt and on the retry after a lost answer',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-10', 'R-EP-11'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      const invoice = requestInvoice(ctx);
      const expected = canonicalJson(invoice);
      const since = await ctx.sandbox.lastCallId();
      // The first attempt pays but its answer is lost, so the caller repeats the same request.
      const again = await withFaults(ctx, lostDisbursementAnswer(id), async () => {
        await disburseWith(ctx, id, invoice);
        return disburseWith(ctx, id, invoice);
      });
      expectStatus(again, [202, 409], 'for repeating a disburse whose first answer was lost', 'WIRE §5');
      const calls = (await ctx.sandbox.serviceCalls(since)).filter(
        (c) => c.operation === 'disburseOrder' && isCallOnOrder(c, id),
      );
      ensure(calls.length > 0, {
        expected: `a disburse call of order ${id} at the service`,
        actual: 'none',
        rule: 'R-EP-10',
      });
      const [first, ...retries] = calls.map(sentInvoice);
      ensure(first === expected, {
        expected: `the invoice of the request body at the service, as sent: ${expected}`,
        actual: `the market sent ${first}`,
        rule: 'R-EP-10',
      });
      const differing = retries.filter((sent) => sent !== expected);
      ensure(differing.length === 0, {
        expected: `every retry of the disbursement to carry the same invoice: ${expected}`,
        actual: `a retry sent ${differing.join(' then ')}`,
        rule: 'R-EP-11',
      });
    },
  },
];
