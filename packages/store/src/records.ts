/** Records the store reads and writes, in model (camelCase) terms. */
import type { BackoffPolicy, BasicProfile, CustomScopeData, OrderStatus } from '@bnpl-kit/core';

export interface UserRecord {
  /** The market's internal user ID (the `id` of push-claims, `local_id` of offer filtering). */
  id: string;
  /** The service user ID (`credify_id` on the wire), once the service has assigned one. */
  credifyId: string | undefined;
  profile: BasicProfile;
  /** Custom scope data: `{ [scopeKey]: { [claimKey]: value } }`. */
  customClaims: CustomScopeData;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewUser {
  /** Generated (a UUID) when omitted. */
  id?: string;
  credifyId?: string;
  profile?: BasicProfile;
  customClaims?: CustomScopeData;
  /** Stored only as a SHA-256 hash; look the user up again with `findUserBySessionToken`. */
  sessionToken?: string;
}

export interface UserUpdate {
  /** Replaces the whole profile. */
  profile?: BasicProfile;
  /** Replaces the whole custom claim data. */
  customClaims?: CustomScopeData;
}

export interface OrderStatusHistoryEntry {
  orderId: string;
  /** Undefined for the status the order was created with. */
  from: OrderStatus | undefined;
  to: OrderStatus;
  source: string;
  changedAt: Date;
}

export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface Job<Payload = unknown> {
  id: string;
  kind: string;
  payload: Payload;
  dedupeKey: string;
  status: JobStatus;
  /** Claims so far, counting the current one: a worker that dies mid-job used an attempt. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lockedUntil: Date | undefined;
  lockedBy: string | undefined;
  lastError: string | undefined;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewJob<Payload = unknown> {
  kind: string;
  /** Any JSON value. */
  payload: Payload;
  /** A second enqueue with the same key inserts nothing and returns the first job. */
  dedupeKey: string;
  /** Not before this time; default now. */
  runAt?: Date;
  /** Attempts before `failJob` gives up; default 10. */
  maxAttempts?: number;
}

export interface ClaimJobOptions {
  /** Only these kinds; all kinds when omitted. */
  kinds?: readonly string[];
  /** How long the claim holds; after that another worker may take the job over. */
  lockMs: number;
}

export interface RenewJobLeaseOptions {
  /** The worker holding the lease (`claimNextJob`'s `workerId`). */
  workerId: string;
  /** The claim's attempt (`job.attempts`): a later claim of the same job is not this one. */
  attempt: number;
  /** The new lease, counted from now. */
  lockMs: number;
}

export interface FailJobOptions {
  /** Only fail the job if this worker still holds it (its lock has not been taken over). */
  workerId?: string;
  /** Retry at this time. */
  retryAt?: Date;
  /** Retry after this delay. Without `retryAt`/`retryInMs`, the store's backoff policy decides. */
  retryInMs?: number;
  /** Mark the job failed for good, whatever the attempts left. */
  giveUp?: boolean;
}

/**
 * The kit's backoff policy (core's `backoffDelayMs`, full jitter) applied to jobs: the delay after
 * failed attempt n is uniform in [0, min(maxDelayMs, baseDelayMs·2^(n−1))). Defaults 1 s and 10 min.
 */
export interface JobRetryPolicy extends BackoffPolicy {
  /** In [0, 1); drives the jitter. Default `Math.random` (tests pin it). */
  random?: () => number;
}
