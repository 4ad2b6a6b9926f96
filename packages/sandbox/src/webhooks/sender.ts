/**
 * The webhook sender (WIRE §4, sender rules): one delivery per registered URL, signed with the
 * sandbox's key, retried on a non-2xx answer or a 10 s timeout along the backoff schedule, then given
 * up. First attempts to one URL go out in emission order (so a demo sees APPROVED before PAID);
 * retries run on their own. Every attempt is recorded; a delivery can be replayed.
 */
import { signWebhook } from '@bnpl-kit/core/testing';
import type { Clock, TimerHandle } from '../clock.js';
import type { FaultRegistry, WebhookFault } from '../faults.js';
import { serviceId } from '../state.js';
import { postAttempt } from './post.js';
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_RETRY_SCHEDULE_MS,
  type Delivery,
  type DeliveryAttempt,
  type WebhookSenderOptions,
} from './types.js';

export interface WebhookSenderDeps {
  clock: Clock;
  fetch: typeof fetch;
  /** The sandbox's Ed25519 seed. */
  signingSeed: Uint8Array;
  faults: FaultRegistry;
  options: WebhookSenderOptions;
  /** Told after every finished attempt: the deliveries changed outside any request (persistence). */
  onAttemptFinished?: (() => void) | undefined;
}

export interface DeliveryFilter {
  status?: Delivery['status'];
  eventType?: string;
  eventId?: string;
  organizationId?: string;
  /** The deliveries about one order (the payload's `order_id`). */
  orderId?: string;
}

/** The `order_id` a delivery's payload names, if any (every delivery's body is JSON the sandbox wrote). */
function payloadOrderId(delivery: Delivery): unknown {
  try {
    return (JSON.parse(delivery.body) as { order_id?: unknown }).order_id;
  } catch {
    return undefined;
  }
}

/** One macrotask turn of the real event loop (never the sandbox clock). */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class WebhookSender {
  readonly #deps: WebhookSenderDeps;
  readonly #schedule: number[];
  readonly #attemptTimeoutMs: number;
  readonly #deliveries = new Map<string, Delivery>();
  readonly #inflight = new Set<Promise<void>>();
  readonly #urlQueues = new Map<string, Promise<void>>();
  readonly #timers = new Set<TimerHandle>();
  readonly #held = new Map<string, Delivery[]>();
  readonly #verbatimHeaders = new Map<string, Record<string, string>>();
  #nextId = 1;
  #closed = false;
  /** Counts steps of any attempt, so `settle` can tell waiting from working. */
  #progress = 0;
  /** Attempts busy on our side (signing), as opposed to waiting for the market. */
  #preparing = 0;

  constructor(deps: WebhookSenderDeps) {
    this.#deps = deps;
    const scale = deps.options.timeScale ?? 1;
    const schedule = deps.options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS;
    if (schedule.length === 0)
      throw new TypeError('retrySchedule needs at least one entry (the first attempt)');
    this.#schedule = schedule.map((ms) => Math.max(0, Math.round(ms * scale)));
    this.#attemptTimeoutMs = deps.options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  }

  /** The effective schedule, in milliseconds. */
  get schedule(): readonly number[] {
    return this.#schedule;
  }

  /** Sends `payload` to every URL; returns the deliveries (one per URL, sharing one event ID). */
  emit(organizationId: string, urls: readonly string[], payload: Record<string, unknown>): Delivery[] {
    const eventId = serviceId('evt');
    const body = JSON.stringify(payload);
    const eventType = typeof payload.type === 'string' ? payload.type : 'UNKNOWN';
    return urls.map((url) => {
      const delivery = this.#create({ eventId, eventType, organizationId, url, body });
      this.#applyFault(delivery);
      return delivery;
    });
  }

  list(filter: DeliveryFilter = {}): Delivery[] {
    return [...this.#deliveries.values()].filter(
      (d) =>
        (filter.status === undefined || d.status === filter.status) &&
        (filter.eventType === undefined || d.eventType === filter.eventType) &&
        (filter.eventId === undefined || d.eventId === filter.eventId) &&
        (filter.organizationId === undefined || d.organizationId === filter.organizationId) &&
        (filter.orderId === undefined || payloadOrderId(d) === filter.orderId),
    );
  }

  get(id: string): Delivery | undefined {
    return this.#deliveries.get(id);
  }

  /**
   * Sends a delivery again as a new delivery with the same event ID (the market should answer
   * `duplicate: true`). `verbatim` re-sends the last signed request unchanged, old timestamp and
   * all, once: a receiver must refuse it when the timestamp is out of its window.
   */
  replay(id: string, options: { verbatim?: boolean } = {}): Delivery | undefined {
    const original = this.#deliveries.get(id);
    if (!original) return undefined;
    const verbatim = options.verbatim ?? false;
    if (verbatim && original.attempts.length === 0) {
      throw new TypeError(`Delivery ${id} was never sent, so there is no signed request to replay verbatim`);
    }
    const copy = this.#create({ ...original, duplicateOf: undefined, replayOf: id, verbatim });
    if (verbatim) this.#verbatimHeaders.set(copy.id, original.attempts.at(-1)!.requestHeaders);
    this.#queueFirstAttempt(copy, 0);
    return copy;
  }

  /** Releases deliveries held by an unfinished `reorder` fault, newest first. */
  flushHeld(): void {
    for (const [faultId, held] of this.#held) {
      this.#held.delete(faultId);
      for (const delivery of held.reverse()) this.#queueFirstAttempt(delivery, 0);
    }
  }

  /** Resolves once no attempt is running or queued to run now; scheduled retries do not count. */
  async idle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  /**
   * Like `idle`, but gives up waiting on attempts that make no progress over a few event-loop turns:
   * those wait for the clock (a market that does not answer until the 10 s timeout fires), so a
   * manual clock must move on rather than wait for them.
   */
  async settle(): Promise<void> {
    let quietTurns = 0;
    while (this.#inflight.size > 0 && quietTurns < 3) {
      const before = this.#progress;
      const done = await Promise.race([this.idle().then(() => true), nextTurn().then(() => false)]);
      if (done) return;
      quietTurns = this.#progress === before && this.#preparing === 0 ? quietTurns + 1 : 0;
    }
  }

  /**
   * Takes back deliveries recorded before a restart, under their IDs, and carries on with the
   * unfinished ones: a first attempt still due is queued, a scheduled retry is rescheduled, and an
   * attempt the restart cut off counts as failed (then retried along the schedule).
   */
  restore(deliveries: readonly Delivery[]): void {
    const now = this.#deps.clock.now();
    for (const delivery of deliveries) {
      this.#deliveries.set(delivery.id, delivery);
      const serial = Number(/^dlv_(\d+)$/.exec(delivery.id)?.[1] ?? 0);
      if (serial >= this.#nextId) this.#nextId = serial + 1;
    }
    for (const delivery of deliveries) {
      const wait = Math.max(0, (delivery.nextAttemptAt ?? now) - now);
      if (delivery.status === 'pending' || delivery.status === 'held') {
        this.#queueFirstAttempt(delivery, wait);
      } else if (delivery.status === 'retrying') {
        this.#later(wait, () => this.#track(this.#attempt(delivery)));
      } else if (delivery.status === 'in_flight') {
        const cut = delivery.attempts.at(-1);
        if (!cut) {
          this.#queueFirstAttempt(delivery, 0);
          continue;
        }
        cut.finishedAt ??= now;
        cut.outcome ??= 'network_error';
        cut.error ??= 'interrupted: the sandbox restarted during this attempt';
        this.#afterAttempt(delivery, cut);
      }
    }
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) this.#deps.clock.clearTimeout(timer);
    this.#timers.clear();
  }

  #create(
    fields: Pick<Delivery, 'eventId' | 'eventType' | 'organizationId' | 'url' | 'body'> & Partial<Delivery>,
  ) {
    const delivery: Delivery = {
      id: `dlv_${this.#nextId++}`,
      eventId: fields.eventId,
      eventType: fields.eventType,
      organizationId: fields.organizationId,
      url: fields.url,
      body: fields.body,
      status: 'pending',
      attempts: [],
      createdAt: this.#deps.clock.now(),
      nextAttemptAt: undefined,
      duplicateOf: fields.duplicateOf,
      replayOf: fields.replayOf,
      verbatim: fields.verbatim ?? false,
      fault: undefined,
    };
    this.#deliveries.set(delivery.id, delivery);
    return delivery;
  }

  #applyFault(delivery: Delivery): void {
    const fault = this.#deps.faults.takeWebhookFault(delivery.eventType);
    if (fault) delivery.fault = `${fault.action}:${fault.id}`;
    switch (fault?.action) {
      case 'drop':
        delivery.status = 'dropped';
        return;
      case 'duplicate': {
        this.#queueFirstAttempt(delivery, this.#schedule[0]!);
        const copy = this.#create({ ...delivery, duplicateOf: delivery.id });
        copy.fault = delivery.fault;
        this.#queueFirstAttempt(copy, this.#schedule[0]!);
        return;
      }
      case 'delay':
        this.#queueFirstAttempt(delivery, this.#schedule[0]! + fault.delayMs);
        return;
      case 'reorder':
        this.#hold(delivery, fault);
        return;
      default:
        this.#queueFirstAttempt(delivery, this.#schedule[0]!);
    }
  }

  #hold(delivery: Delivery, fault: WebhookFault): void {
    delivery.status = 'held';
    const group = this.#held.get(fault.id) ?? [];
    group.push(delivery);
    this.#held.set(fault.id, group);
    if (fault.remaining > 0) return;
    this.#held.delete(fault.id);
    for (const held of group.reverse()) this.#queueFirstAttempt(held, 0);
  }

  /** First attempts to one URL run one after another, in the order they were queued. */
  #queueFirstAttempt(delivery: Delivery, delayMs: number): void {
    if (delayMs > 0) {
      delivery.status = 'pending';
      delivery.nextAttemptAt = this.#deps.clock.now() + delayMs;
      this.#later(delayMs, () => this.#queueFirstAttempt(delivery, 0));
      return;
    }
    delivery.status = 'pending';
    const previous = this.#urlQueues.get(delivery.url) ?? Promise.resolve();
    const attempt = () => this.#attempt(delivery);
    const run = previous.then(attempt, attempt);
    this.#urlQueues.set(delivery.url, run);
    this.#track(run);
  }

  #later(ms: number, callback: () => void): void {
    if (this.#closed) return;
    const timer = this.#deps.clock.setTimeout(() => {
      this.#timers.delete(timer);
      callback();
    }, ms);
    this.#timers.add(timer);
  }

  #track(promise: Promise<void>): void {
    this.#inflight.add(promise);
    void promise.finally(() => this.#inflight.delete(promise));
  }

  async #attempt(delivery: Delivery): Promise<void> {
    if (this.#closed) return;
    delivery.status = 'in_flight';
    delivery.nextAttemptAt = undefined;
    let attempt: DeliveryAttempt;
    this.#preparing++;
    try {
      attempt = await this.#prepareAttempt(delivery);
    } catch {
      // Only a broken signing key gets here; retrying would fail the same way.
      delivery.status = 'failed';
      return;
    } finally {
      this.#preparing--;
    }
    this.#progress++;
    const onAnswer = () => {
      this.#progress++;
    };
    const { clock, fetch } = this.#deps;
    await postAttempt({ clock, fetch, timeoutMs: this.#attemptTimeoutMs, onAnswer }, delivery, attempt);
    this.#progress++;
    this.#afterAttempt(delivery, attempt);
    this.#deps.onAttemptFinished?.();
  }

  async #prepareAttempt(delivery: Delivery): Promise<DeliveryAttempt> {
    const now = this.#deps.clock.now();
    let requestHeaders = this.#verbatimHeaders.get(delivery.id);
    if (!requestHeaders) {
      // Each attempt is signed afresh: a retry hours later must still pass the receiver's time window.
      const signed = await signWebhook({
        url: delivery.url,
        body: delivery.body,
        signingKey: this.#deps.signingSeed,
        eventId: delivery.eventId,
        timestamp: new Date(now),
      });
      requestHeaders = signed.headers;
    }
    const attempt: DeliveryAttempt = {
      number: delivery.attempts.length + 1,
      startedAt: now,
      finishedAt: undefined,
      requestHeaders,
      responseStatus: undefined,
      responseBody: undefined,
      outcome: undefined,
      error: undefined,
    };
    delivery.attempts.push(attempt);
    return attempt;
  }

  #afterAttempt(delivery: Delivery, attempt: DeliveryAttempt): void {
    if (attempt.outcome === 'success') {
      delivery.status = 'delivered';
      return;
    }
    const next = delivery.attempts.length;
    if (delivery.verbatim || next >= this.#schedule.length || this.#closed) {
      delivery.status = 'failed';
      return;
    }
    const delay = this.#schedule[next]!;
    delivery.status = 'retrying';
    delivery.nextAttemptAt = this.#deps.clock.now() + delay;
    this.#later(delay, () => this.#track(this.#attempt(delivery)));
  }
}
