import { WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_REDELIVERY_SCHEDULE_MS } from '@bnpl-kit/core/wire';

/** What the webhook sender records: one delivery per event per registered URL, every attempt kept. */

export type DeliveryStatus =
  /** Waiting for its first attempt (queued behind earlier deliveries to the URL, or delayed). */
  | 'pending'
  /** Held by a `reorder` fault until the rest of its group arrives. */
  | 'held'
  | 'in_flight'
  /** Failed at least once; the next attempt is scheduled at `nextAttemptAt`. */
  | 'retrying'
  | 'delivered'
  /** Every attempt of the schedule failed; given up. */
  | 'failed'
  /** Removed by a `drop` fault: never sent. */
  | 'dropped';

export interface DeliveryAttempt {
  number: number;
  startedAt: number;
  finishedAt: number | undefined;
  /** The headers sent, signature included (a verbatim replay sends these again). */
  requestHeaders: Record<string, string>;
  /** HTTP status of the market's answer, when it answered. */
  responseStatus: number | undefined;
  /** The first 500 characters of the answer. */
  responseBody: string | undefined;
  outcome: 'success' | 'http_error' | 'timeout' | 'network_error' | undefined;
  error: string | undefined;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  organizationId: string;
  url: string;
  /** The exact JSON text sent and signed. */
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  createdAt: number;
  nextAttemptAt: number | undefined;
  /** Set on a copy created by a `duplicate` fault or by a replay. */
  duplicateOf: string | undefined;
  replayOf: string | undefined;
  /** A verbatim replay re-sends the original's last signed request once, old timestamp and all. */
  verbatim: boolean;
  /** Which fault touched it, for the record. */
  fault: string | undefined;
}

/** The protocol's redelivery schedule (WIRE §4), core's: the store's retention is derived from it too. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = WEBHOOK_REDELIVERY_SCHEDULE_MS;

export const DEFAULT_ATTEMPT_TIMEOUT_MS = WEBHOOK_ATTEMPT_TIMEOUT_MS;

export interface WebhookSenderOptions {
  /**
   * Delay before each attempt, the first included (WIRE §4: 0 s, 5 s, 30 s, 2 min, 10 min, 1 h,
   * 6 h); after the last one fails the delivery is given up.
   */
  retrySchedule?: readonly number[];
  /** Multiplies every delay of the schedule (e.g. 0.001 turns hours into seconds). Default 1. */
  timeScale?: number;
  /** How long one attempt may take. Default 10 000. */
  attemptTimeoutMs?: number;
}
