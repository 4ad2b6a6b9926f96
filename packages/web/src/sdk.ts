import { type BnplAvailability, type BnplUser, getBnplAvailability } from './availability.js';
import { type BnplEnv, type ConfigureOptions, resolveConfig } from './config.js';
import { type FlowControl, type PresentModallyOptions, presentModally } from './present-modally.js';
import { createServiceApi } from './service-api.js';
import { type ShowPassportOptions, showPassport } from './show-passport.js';

/** The SDK instance: the specification's `bnpl` and `passport` operations. */
export interface BnplSdk {
  readonly env: BnplEnv;
  readonly appName: string;
  /** The resolved service base URL (no trailing slash). */
  readonly serviceUrl: string;
  readonly bnpl: {
    /** `{ isAvailable, credifyId }`; throws BnplSdkError. Write credifyId back onto your user. */
    getBNPLAvailability(user: BnplUser): Promise<BnplAvailability>;
    /** Opens the hosted BNPL page in a modal; throws BnplSdkError (invalid_argument, flow_in_progress, no_dom). */
    presentModally(options: PresentModallyOptions): FlowControl;
  };
  readonly passport: {
    /** Opens the page where the user manages BNPL usage and repays. */
    showDetail(options: ShowPassportOptions): FlowControl;
  };
}

/** Instantiates the SDK; throws BnplSdkError('invalid_config') on unusable options. */
export function configure(options: ConfigureOptions): BnplSdk {
  const config = resolveConfig(options);
  const api = createServiceApi(config);
  return {
    env: config.env,
    appName: config.appName,
    serviceUrl: config.serviceUrl,
    bnpl: {
      getBNPLAvailability: (user) => getBnplAvailability(api, user),
      presentModally: (flowOptions) => presentModally(config, flowOptions),
    },
    passport: {
      showDetail: (flowOptions) => showPassport(config, flowOptions),
    },
  };
}
