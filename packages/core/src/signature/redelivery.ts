/**
 * The service's webhook redelivery schedule (WIRE §4, sender rules), one home for the sandbox's
 * sender, which follows it, and the store's retention, which must remember an event ID for at least
 * as long as a redelivery of it can still arrive.
 */
const SECOND = 1_000;

/** The delay before each attempt, the first included: 0 s, 5 s, 30 s, 2 min, 10 min, 1 h, 6 h. */
export const WEBHOOK_REDELIVERY_SCHEDULE_MS: readonly number[] = Object.freeze([
  0,
  5 * SECOND,
  30 * SECOND,
  120 * SECOND,
  600 * SECOND,
  3_600 * SECOND,
  6 * 3_600 * SECOND,
]);

/** How long one delivery attempt may take before it counts as failed. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10 * SECOND;
