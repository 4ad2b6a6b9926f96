import type { IntegrationMode } from '@bnpl-kit/core';
import { checksFor } from './index.js';
import { RESTART_CHECK } from './service-lifecycle.js';

/** The checks that take one order through the market to its webhooks, in either mode. */
export const ORDER_THROUGH_WEBHOOKS_CHECKS = [
  'orders.create.valid',
  'orders.status.follows-service',
  'webhook.service-deliveries-acknowledged',
] as const;

export { RESTART_CHECK };

export interface ModeSmokeOptions {
  /**
   * Add `RESTART_CHECK`: for a stack that keeps its own state (its store, its data directory), where
   * this run is the only one that restarts that stack.
   */
  restart?: boolean;
}

/**
 * What a run in `mode` needs to prove on a stack (a runtime, a framework's glue, a README's server)
 * where the other mode is certified whole: the market starts in `mode` and serves an order through
 * to its webhooks, plus every check only `mode` has. The rest of a mode's checks exercise the
 * market's logic, which is the same code on every stack, so one whole run of each mode certifies it
 * (in this repository: in-process on hono, and on the reference server and the conformance market);
 * a stack's own parts (Web Crypto, body reading, the framework's mount) are all reached by the whole
 * run of the other mode when that is data-sharing, whose checks are a superset of basic's but
 * basic's own.
 */
export function modeSmokeChecks(mode: IntegrationMode, options: ModeSmokeOptions = {}): string[] {
  const other: IntegrationMode = mode === 'basic' ? 'data-sharing' : 'basic';
  const inOther = new Set(checksFor(other).map((check) => check.id));
  const onlyHere = checksFor(mode)
    .map((check) => check.id)
    .filter((id) => !inOther.has(id));
  return [...ORDER_THROUGH_WEBHOOKS_CHECKS, ...onlyHere, ...(options.restart ? [RESTART_CHECK] : [])];
}
