/**
 * The invoice the reference servers attach to a disbursement when the request brings none (core's
 * `getDisbursementInvoice` hook, WIRE §5). Some providers refuse to disburse without invoice data;
 * a real market returns its own invoice here. The reference servers have no invoicing system, so
 * they number the invoice after the market's own order reference and date it at the last status
 * change; they never invent a URL nobody serves.
 */
import type { Invoice, StoredOrder } from '@bnpl-kit/core';

export type { DisbursementInvoiceSource } from '@bnpl-kit/store/worker';

const MAX_NUMBER = 255;

export function referenceInvoice(order: StoredOrder): Invoice {
  return {
    number: `INV-${order.referenceId}`.slice(0, MAX_NUMBER),
    issuedAt: order.updatedAt.toISOString(),
  };
}
