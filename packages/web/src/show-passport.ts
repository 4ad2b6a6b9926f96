import { assertUser, BNPL_PRODUCT_TYPE, type BnplUser } from './availability.js';
import type { ResolvedConfig } from './config.js';
import { BnplSdkError } from './errors.js';
import { openHostedFlow } from './hosted-flow.js';
import type { FlowControl } from './present-modally.js';
import { passportPageUrl } from './protocol.js';

export interface ShowPassportOptions {
  /** Must carry the credifyId returned by getBNPLAvailability. */
  user: BnplUser;
  /** The market's organisation ID. */
  marketId: string;
  /** Defaults to ['consumerBNPL']. */
  productTypes?: readonly string[];
  /** Called exactly once, when the dialog closes (the user, the page's `close`, or FlowControl.close). */
  onDismiss?: () => void;
}

export function showPassport(config: ResolvedConfig, options: ShowPassportOptions): FlowControl {
  if (typeof options !== 'object' || options === null) {
    throw new BnplSdkError('invalid_argument', 'showDetail() needs an options object');
  }
  assertUser(options.user);
  const credifyId = options.user.credifyId;
  if (credifyId === undefined) {
    throw new BnplSdkError('invalid_argument', 'user.credifyId is needed: call getBNPLAvailability first');
  }
  if (typeof options.marketId !== 'string' || options.marketId === '') {
    throw new BnplSdkError('invalid_argument', 'marketId must be the non-empty organisation ID');
  }
  const productTypes = options.productTypes ?? [BNPL_PRODUCT_TYPE];
  if (!Array.isArray(productTypes) || productTypes.some((t) => typeof t !== 'string' || t === '')) {
    throw new BnplSdkError('invalid_argument', 'productTypes must be a list of names');
  }
  const { onDismiss } = options;

  const dismiss = () => {
    if (flow.close()) onDismiss?.();
  };
  const flow = openHostedFlow({
    kind: 'passport',
    title: 'Pay later account',
    pageOrigin: config.serviceOrigin,
    pageUrl: (session) =>
      passportPageUrl(config.serviceUrl, {
        credifyId,
        marketId: options.marketId,
        productTypes,
        appName: config.appName,
        origin: window.location.origin,
        session,
      }),
    onDismiss: dismiss,
    onPageMessage: (message) => {
      if (message.type === 'close') dismiss();
    },
  });
  return { close: dismiss };
}
