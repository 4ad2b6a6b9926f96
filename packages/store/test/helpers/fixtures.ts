/** Stored orders for the store tests: core's one order fixture plus what the store adds to it. */
import type { NewStoredOrder } from '@bnpl-kit/core';
import { orderFixture } from '@bnpl-kit/core/testing';
import { unique } from './backends.js';

export function newOrder(overrides: Partial<NewStoredOrder> = {}): NewStoredOrder {
  return {
    ...orderFixture({ referenceId: unique('ref') }),
    id: unique('svc-order'),
    status: 'PENDING',
    requestFingerprint: 'fp-1',
    ...overrides,
  };
}
