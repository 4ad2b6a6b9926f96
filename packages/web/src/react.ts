/**
 * @bnpl-kit/web/react: one hook over an SDK instance. The callbacks of presentModally and
 * showDetail become promises, availability becomes state, and a dialog still open when the
 * component unmounts is closed (its promise then resolves as dismissed).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BnplAvailability, BnplUser } from './availability.js';
import type { BnplCompletion, FlowControl, OrderInfo, PushClaimTokensTask } from './present-modally.js';
import type { BnplSdk } from './sdk.js';
import type { ShowPassportOptions } from './show-passport.js';

export type AvailabilityState =
  | { status: 'idle' }
  | { status: 'checking' }
  | ({ status: 'done' } & BnplAvailability)
  | { status: 'error'; error: unknown };

export interface PayLaterOptions {
  userProfile: BnplUser;
  orderInfo: OrderInfo;
  /** Defaults to the basic-mode answer: `done(true)` at once. */
  pushClaimTokensTask?: PushClaimTokensTask;
}

export interface UseBnpl {
  availability: AvailabilityState;
  /** Resolves with the result (and rejects with the BnplSdkError) as well as updating `availability`. */
  checkAvailability(user: BnplUser): Promise<BnplAvailability>;
  /** Opens the BNPL dialog; resolves once with its completion; rejects if it cannot open. */
  payLater(options: PayLaterOptions): Promise<BnplCompletion>;
  /** Opens the passport dialog; resolves when it is closed. */
  showPassport(options: Omit<ShowPassportOptions, 'onDismiss'>): Promise<void>;
}

const basicModePushClaims: PushClaimTokensTask = (_credifyId, done) => done(true);

export function useBnpl(sdk: BnplSdk): UseBnpl {
  const [availability, setAvailability] = useState<AvailabilityState>({ status: 'idle' });
  const latestCheck = useRef(0);
  const openFlow = useRef<FlowControl | null>(null);

  useEffect(
    () => () => {
      openFlow.current?.close();
    },
    [],
  );

  const checkAvailability = useCallback(
    async (user: BnplUser) => {
      // Only the latest check may write the state: an older, slower answer is dropped.
      const ticket = ++latestCheck.current;
      setAvailability({ status: 'checking' });
      try {
        const result = await sdk.bnpl.getBNPLAvailability(user);
        if (ticket === latestCheck.current) setAvailability({ status: 'done', ...result });
        return result;
      } catch (error) {
        if (ticket === latestCheck.current) setAvailability({ status: 'error', error });
        throw error;
      }
    },
    [sdk],
  );

  const payLater = useCallback(
    (options: PayLaterOptions) =>
      new Promise<BnplCompletion>((resolve) => {
        const flow = sdk.bnpl.presentModally({
          userProfile: options.userProfile,
          orderInfo: options.orderInfo,
          pushClaimTokensTask: options.pushClaimTokensTask ?? basicModePushClaims,
          onCompletion: (result) => {
            if (openFlow.current === flow) openFlow.current = null;
            resolve(result);
          },
        });
        openFlow.current = flow;
      }),
    [sdk],
  );

  const showPassport = useCallback(
    (options: Omit<ShowPassportOptions, 'onDismiss'>) =>
      new Promise<void>((resolve) => {
        const flow = sdk.passport.showDetail({
          ...options,
          onDismiss: () => {
            if (openFlow.current === flow) openFlow.current = null;
            resolve();
          },
        });
        openFlow.current = flow;
      }),
    [sdk],
  );

  return { availability, checkAvailability, payLater, showPassport };
}
