/**
 * Fault injection, so a test can prove the market copes with a misbehaving service:
 *
 * - route faults: the next N calls of a service operation answer 500 (or another status), never
 *   answer (a timeout from the caller's point of view), answer 200 with a malformed body, or answer
 *   200 with the envelope of a refusal (`refused`: `success: false` under a 2xx status), or answer
 *   as usual but late (`delay`: a slow service, so a market's calls overlap at the service).
 *   `afterEffect` applies the operation first, so the caller loses the answer to a request that did
 *   happen: the case an Idempotency-Key exists for. `unknown_status` applies the operation and answers
 *   it with `order_status` replaced by a value outside the six (`orderStatus`, default `ON_HOLD`): a
 *   real service that grew a new status (WIRE §6 tolerant reading).
 * - webhook faults: the next N deliveries (optionally of one event type) are dropped, sent twice,
 *   delayed, or held and sent in reverse order.
 *
 * Each fault is consumed as it fires; `list()` shows what is left.
 */
import { ORDER_SERVICE_OPERATIONS, SERVICE_OPERATIONS, type ServiceOperation } from '@bnpl-kit/core/wire';
import { z } from 'zod';

export interface RouteFault {
  id: string;
  target: 'route';
  operation: ServiceOperation;
  /**
   * `malformed`: a 200 whose body is not the documented envelope; `refused`: a 200 with `success: false`;
   * `delay`: the operation's own answer, `delayMs` late (a slow service, so calls overlap).
   */
  action: 'error' | 'timeout' | 'malformed' | 'refused' | 'unknown_status' | 'delay';
  remaining: number;
  /** HTTP status of an `error` answer. Default 500. */
  status: number;
  afterEffect: boolean;
  /** The `order_status` of an `unknown_status` answer. */
  orderStatus: string;
  /** How late a `delay` answer comes. */
  delayMs: number;
  /**
   * Only calls on this order (the `:id` of ORDER_SERVICE_OPERATIONS): a market's
   * background work on other orders (a worker's reconciliation or disbursement retry) passes by.
   */
  orderId: string | undefined;
}

export interface WebhookFault {
  id: string;
  target: 'webhook';
  action: 'drop' | 'duplicate' | 'delay' | 'reorder';
  /** Deliveries affected; for `reorder`, how many are held before they go out reversed. */
  remaining: number;
  delayMs: number;
  /** Only deliveries of this event `type` (default: any). */
  eventType: string | undefined;
}

export type Fault = RouteFault | WebhookFault;

type Distribute<T> = T extends Fault
  ? Omit<Partial<T>, 'id' | 'remaining'> & Pick<T, 'target' | 'action'>
  : never;
export type FaultInput = Distribute<Fault> & { times?: number };

/** snake_case JSON of the admin API (`POST /sandbox/faults`). */
export const faultJsonSchema = z.discriminatedUnion('target', [
  z.object({
    target: z.literal('route'),
    operation: z.enum(SERVICE_OPERATIONS as [ServiceOperation, ...ServiceOperation[]]),
    action: z.enum(['error', 'timeout', 'malformed', 'refused', 'unknown_status', 'delay']),
    times: z.number().int().min(1).max(1000).default(1),
    status: z.number().int().min(400).max(599).default(500),
    after_effect: z.boolean().default(false),
    order_status: z.string().min(1).max(64).default('ON_HOLD'),
    delay_ms: z.number().int().min(0).max(60_000).default(1000),
    order_id: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        `Only calls on this order (${ORDER_SERVICE_OPERATIONS.join(', ')}); on another operation the fault never fires`,
      ),
  }),
  z.object({
    target: z.literal('webhook'),
    action: z.enum(['drop', 'duplicate', 'delay', 'reorder']),
    times: z.number().int().min(1).max(1000).optional(),
    delay_ms: z.number().int().min(0).max(86_400_000).default(1000),
    event_type: z.string().min(1).optional(),
  }),
]);

export function faultFromJson(json: z.output<typeof faultJsonSchema>): FaultInput {
  if (json.target === 'route') {
    return {
      target: 'route',
      operation: json.operation,
      action: json.action,
      times: json.times,
      status: json.status,
      afterEffect: json.after_effect,
      orderStatus: json.order_status,
      delayMs: json.delay_ms,
      orderId: json.order_id,
    };
  }
  return {
    target: 'webhook',
    action: json.action,
    ...(json.times !== undefined && { times: json.times }),
    delayMs: json.delay_ms,
    eventType: json.event_type,
  };
}

export class FaultRegistry {
  #faults: Fault[] = [];
  #nextId = 1;

  add(input: FaultInput): Fault {
    const id = `fault_${this.#nextId++}`;
    if (input.target === 'route') {
      if (!input.operation) throw new TypeError('A route fault needs an operation');
      const fault: RouteFault = {
        id,
        target: 'route',
        operation: input.operation,
        action: input.action,
        remaining: input.times ?? 1,
        status: input.status ?? 500,
        afterEffect: input.afterEffect ?? false,
        orderStatus: input.orderStatus ?? 'ON_HOLD',
        delayMs: input.delayMs ?? 1000,
        orderId: input.orderId,
      };
      this.#faults.push(fault);
      return fault;
    }
    const fault: WebhookFault = {
      id,
      target: 'webhook',
      action: input.action,
      remaining: input.times ?? (input.action === 'reorder' ? 2 : 1),
      delayMs: input.delayMs ?? 1000,
      eventType: input.eventType,
    };
    this.#faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.#faults = [];
  }

  /** Consumes one firing of the first route fault for `operation` (on order `orderId`, the call's `:id`). */
  takeRouteFault(operation: ServiceOperation, orderId?: string): RouteFault | undefined {
    const fault = this.#faults.find(
      (f): f is RouteFault =>
        f.target === 'route' &&
        f.operation === operation &&
        (f.orderId === undefined || f.orderId === orderId),
    );
    if (fault) this.#consume(fault);
    return fault && { ...fault };
  }

  /** Consumes one firing of the first webhook fault matching `eventType` (reorder counts per delivery too). */
  takeWebhookFault(eventType: string): WebhookFault | undefined {
    const fault = this.#faults.find(
      (f): f is WebhookFault =>
        f.target === 'webhook' && (f.eventType === undefined || f.eventType === eventType),
    );
    if (fault) this.#consume(fault);
    return fault && { ...fault };
  }

  #consume(fault: Fault): void {
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults = this.#faults.filter((f) => f !== fault);
  }
}
