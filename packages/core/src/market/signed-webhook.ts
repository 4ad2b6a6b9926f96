/**
 * The `webhook-signature` authentication of the route table (WIRE §4): the raw bytes read once
 * (one size check, after one "not raw" decision), verified (headers, algorithm, time window, then
 * Ed25519 against the URL as registered, never the Host header), the event ID checked, and the
 * body decoded with the one strict JSON decoder into an event. The route's handler only applies it.
 */
import { KitError } from '../errors.js';
import { parseWebhookEvent, type WebhookEvent } from '../models/events.js';
import { MAX_TEXT_LENGTH, unstorableReason } from '../models/text.js';
import { recordWebhookOutcome } from '../observability/metrics.js';
import { withSpan } from '../observability/telemetry.js';
import { isWebhookVerificationError } from '../signature/errors.js';
import type { Keyring } from '../signature/keyring.js';
import { type VerifiedWebhook, verifyRawWebhook } from '../signature/verify.js';
import { readBodyBytes } from './body.js';
import { bodyNotRawHelp } from './body-hints.js';
import { header, type RouteContext } from './context.js';

/** The request's headers as the verifier reads them, through the bridge's cheap single lookups. */
class RequestHeaders {
  constructor(private readonly request: Request) {}
  get(name: string): string | null {
    return header(this.request, name);
  }
}

function verifyWith(ctx: RouteContext, body: Uint8Array, keys: Keyring): Promise<VerifiedWebhook> {
  const { deps, request } = ctx;
  // The raw variant: `readBodyBytes` already applied the size cap and the "not raw" check ran first.
  return verifyRawWebhook(
    { method: request.method, url: deps.webhookUrl, headers: new RequestHeaders(request) },
    body,
    { keys, now: deps.now(), toleranceSeconds: deps.config.webhookToleranceSeconds ?? 300 },
  );
}

function verify(ctx: RouteContext, body: Uint8Array): Promise<VerifiedWebhook> {
  // A promise chain rather than an `async` function: this runs on every delivery.
  let first: Promise<VerifiedWebhook>;
  try {
    const keys = ctx.deps.webhookKeys.current();
    first =
      keys instanceof Promise ? keys.then((k) => verifyWith(ctx, body, k)) : verifyWith(ctx, body, keys);
  } catch (error) {
    return Promise.reject(error);
  }
  return first.catch((error: unknown) => retryWithFreshKeys(ctx, body, error));
}

async function retryWithFreshKeys(
  ctx: RouteContext,
  body: Uint8Array,
  error: unknown,
): Promise<VerifiedWebhook> {
  if (!isWebhookVerificationError(error) || error.code !== 'signature_invalid') throw error;
  // Perhaps the service rotated its key: fetch it again (rate-limited) and retry once.
  const fresh = await ctx.deps.webhookKeys.refreshAfterFailure();
  if (!fresh) throw error;
  return verifyWith(ctx, body, fresh);
}

/** The event ID is a stored primary key: capped and storable, or the delivery is a 400, not a 500. */
function checkEventId(eventId: string): void {
  const problem =
    eventId.length > MAX_TEXT_LENGTH
      ? `must be at most ${MAX_TEXT_LENGTH} characters`
      : unstorableReason(eventId);
  if (problem === undefined) return;
  throw new KitError('validation_failed', `The X-Event-Id header ${problem}`, {
    errors: [{ path: 'X-Event-Id', message: problem }],
  });
}

export interface SignedWebhook {
  readonly verified: VerifiedWebhook;
  readonly event: WebhookEvent;
}

async function receive(ctx: RouteContext): Promise<SignedWebhook> {
  const help = bodyNotRawHelp(ctx.request);
  if (help !== undefined) {
    await ctx.request.body?.cancel().catch(() => {});
    throw new KitError(
      'payload_not_raw',
      `The webhook body reached the kit already parsed and re-serialized, so its signature cannot be checked. ${help}`,
    );
  }
  const body = await readBodyBytes(ctx.request, ctx.deps.limits.maxBodyBytes);
  const verified = await withSpan('bnpl.webhook.verify', {}, () => verify(ctx, body));
  checkEventId(verified.eventId);
  // Strictly, as every other route's body: bytes that are not UTF-8 are a 400 and change nothing.
  return { verified, event: parseWebhookEvent(verified.body) };
}

/** Verifies and decodes a delivery; a refused one is counted by its problem code. */
export async function receiveSignedWebhook(ctx: RouteContext): Promise<SignedWebhook> {
  try {
    return await receive(ctx);
  } catch (error) {
    recordWebhookOutcome(KitError.fromUnknown(error).code, undefined);
    throw error;
  }
}
