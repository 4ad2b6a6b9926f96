import { assertUser, type BnplUser } from './availability.js';
import type { ResolvedConfig } from './config.js';
import { BnplSdkError } from './errors.js';
import { openHostedFlow } from './hosted-flow.js';
import { bnplPageUrl, type PageCompletionStatus } from './protocol.js';

export interface OrderInfo {
  /** The order's `id` from the market backend's `POST /v1/orders`. */
  orderId: string;
  orderAmount: { value: string; currency: string };
}

/**
 * Data-sharing markets call their backend's `POST /v1/push-claims` and report whether it succeeded;
 * basic-mode markets call `done(true)` at once. A throw or a rejected promise counts as `done(false)`.
 */
// Any return value is accepted; only a promise is looked at (for its rejection).
export type PushClaimTokensTask = (credifyId: string, done: (ok: boolean) => void) => unknown;

export type BnplCompletionStatus = PageCompletionStatus | 'dismissed';

export interface BnplCompletion {
  status: BnplCompletionStatus;
  orderId: string;
  /** What the page reported, for the user interface; the order's real state comes by webhook. */
  isPaymentCompleted: boolean;
}

export interface PresentModallyOptions {
  userProfile: BnplUser;
  orderInfo: OrderInfo;
  pushClaimTokensTask: PushClaimTokensTask;
  /** Called exactly once: when the page reports completion, or with 'dismissed' when the dialog closes. */
  onCompletion: (result: BnplCompletion) => void;
}

/** Closes the dialog from code; onCompletion then fires with 'dismissed' if it has not fired yet. */
export interface FlowControl {
  close(): void;
}

function assertOptions(options: PresentModallyOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new BnplSdkError('invalid_argument', 'presentModally() needs an options object');
  }
  assertUser(options.userProfile, 'userProfile');
  const order = options.orderInfo as Partial<OrderInfo> | undefined;
  if (typeof order?.orderId !== 'string' || order.orderId === '') {
    throw new BnplSdkError('invalid_argument', 'orderInfo.orderId must be a non-empty string');
  }
  const amount = order.orderAmount as Partial<OrderInfo['orderAmount']> | undefined;
  if (
    typeof amount?.value !== 'string' ||
    !/^\d+$/.test(amount.value) ||
    typeof amount.currency !== 'string'
  ) {
    throw new BnplSdkError(
      'invalid_argument',
      'orderInfo.orderAmount needs a digit-string value and a currency',
    );
  }
  if (typeof options.pushClaimTokensTask !== 'function' || typeof options.onCompletion !== 'function') {
    throw new BnplSdkError('invalid_argument', 'pushClaimTokensTask and onCompletion must be functions');
  }
}

export function presentModally(config: ResolvedConfig, options: PresentModallyOptions): FlowControl {
  assertOptions(options);
  const { orderId } = options.orderInfo;
  const { pushClaimTokensTask, onCompletion } = options;
  let pushInFlight = false;

  const finish = (result: BnplCompletion) => {
    // close() is true once: that call alone reports, whatever ends the flow first.
    if (flow.close()) onCompletion(result);
  };
  const dismiss = () => finish({ status: 'dismissed', orderId, isPaymentCompleted: false });

  const runPushClaims = (credifyId: string) => {
    if (pushInFlight) return;
    pushInFlight = true;
    let answered = false;
    const done = (ok: boolean) => {
      if (answered) return;
      answered = true;
      pushInFlight = false;
      flow.post('push_claims_result', { ok: ok === true });
    };
    try {
      const outcome = pushClaimTokensTask(credifyId, done);
      if (outcome instanceof Promise) outcome.catch(() => done(false));
    } catch {
      done(false);
    }
  };

  const flow = openHostedFlow({
    kind: 'bnpl',
    title: 'Pay later',
    pageOrigin: config.serviceOrigin,
    pageUrl: (session) =>
      bnplPageUrl(config.serviceUrl, {
        orderId,
        appName: config.appName,
        origin: window.location.origin,
        session,
        credifyId: options.userProfile.credifyId,
      }),
    onDismiss: dismiss,
    onPageMessage: (message) => {
      switch (message.type) {
        case 'push_claims_request':
          runPushClaims(message.payload.credify_id);
          break;
        case 'completed':
          // A result for another order is not this flow's to report.
          if (message.payload.order_id !== orderId) return;
          finish({
            status: message.payload.status,
            orderId,
            isPaymentCompleted: message.payload.is_payment_completed,
          });
          break;
        case 'close':
          dismiss();
          break;
      }
    },
  });

  return { close: dismiss };
}
