/**
 * The scripted "auto" provider for demos: approve every new order after N ms, confirm readiness M ms
 * after approval, and (for basic-mode markets, where the service disburses by itself) mark it paid
 * P ms after readiness. Timers run on the sandbox's clock, so tests drive it with a manual clock.
 */
import { z } from 'zod';
import type { OrderBook, ReadinessVia } from './orders.js';
import type { SandboxOrder } from './state.js';

export interface AutoScenario {
  approveAfterMs?: number | undefined;
  readyAfterMs?: number | undefined;
  paidAfterMs?: number | undefined;
  readyVia?: ReadinessVia | undefined;
}

const delay = z.number().int().min(0).max(86_400_000).optional();
export const autoScenarioJsonSchema = z
  .object({
    approve_after_ms: delay,
    ready_after_ms: delay,
    paid_after_ms: delay,
    ready_via: z.enum(['status', 'requirement', 'both']).optional(),
  })
  .transform(
    (j): AutoScenario => ({
      approveAfterMs: j.approve_after_ms,
      readyAfterMs: j.ready_after_ms,
      paidAfterMs: j.paid_after_ms,
      readyVia: j.ready_via,
    }),
  );

export function autoScenarioView(s: AutoScenario | undefined): Record<string, unknown> {
  return {
    approve_after_ms: s?.approveAfterMs ?? null,
    ready_after_ms: s?.readyAfterMs ?? null,
    paid_after_ms: s?.paidAfterMs ?? null,
    ready_via: s?.readyVia ?? null,
  };
}

export function attachAutoScenario(
  orders: OrderBook,
  scenario: () => AutoScenario | undefined,
  later: (ms: number, callback: () => void) => void,
): void {
  const scheduled = new Set<string>();
  const once = (order: SandboxOrder, stage: string, ms: number | undefined, step: () => void) => {
    const key = `${order.id}:${stage}`;
    if (ms === undefined || scheduled.has(key)) return;
    scheduled.add(key);
    later(ms, () => {
      try {
        step();
      } catch {
        // The market (or a person at the admin API) moved the order first: nothing left to do.
      }
    });
  };
  orders.onStatus((order) => {
    const s = scenario();
    if (!s) return;
    if (order.status === 'PENDING') {
      once(order, 'approve', s.approveAfterMs, () => orders.approve(order.id));
    } else if (order.status === 'APPROVED' && !order.readyForDisbursement) {
      once(order, 'ready', s.readyAfterMs, () => orders.confirmReadiness(order.id, s.readyVia));
    }
    if (order.readyForDisbursement && (order.status === 'APPROVED' || order.status === 'DISBURSING')) {
      once(order, 'paid', s.paidAfterMs, () => orders.markPaid(order.id));
    }
  });
}
