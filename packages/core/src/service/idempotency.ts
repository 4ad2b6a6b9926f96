/**
 * Idempotency keys for the service's mutating calls, defined once. The client uses them by default
 * and the market handler and the reference servers' jobs pass the same ones, so a manual
 * `POST /orders/:id/disburse` and a retried disbursement job can never both pay.
 */
export const idempotencyKeys = {
  createOrder: (referenceId: string) => `create-order:${referenceId}`,
  revertOrder: (orderId: string) => `revert:${orderId}`,
  disburseOrder: (orderId: string) => `disburse:${orderId}`,
} as const;
