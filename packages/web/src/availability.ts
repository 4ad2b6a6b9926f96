import { BnplSdkError } from './errors.js';
import type { ServiceApi } from './service-api.js';

/**
 * The market's logged-in user mapped to the SDK's user model (the specification's
 * `CredifyUserModel`). `credifyId` is the service user ID: the caller writes the value returned by
 * getBNPLAvailability back onto its user and stores it next to its own user ID.
 */
export interface BnplUser {
  /** The market's own user ID (`local_id` on the wire). */
  id: string;
  credifyId?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  countryCode?: string | undefined;
}

/** The specification's name for the same model. */
export type CredifyUserModel = BnplUser;

export interface BnplAvailability {
  isAvailable: boolean;
  /** The service user ID; null only when the service did not assign one (then isAvailable is false). */
  credifyId: string | null;
}

export const BNPL_PRODUCT_TYPE = 'consumerBNPL';
export const OFFERS_PATH = '/v1/claim-providers/offers';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function assertUser(user: unknown, what = 'user'): asserts user is BnplUser {
  if (!isRecord(user) || typeof user.id !== 'string' || user.id === '') {
    throw new BnplSdkError('invalid_argument', `${what} needs a non-empty string id`);
  }
  if (user.credifyId !== undefined && (typeof user.credifyId !== 'string' || user.credifyId === '')) {
    throw new BnplSdkError('invalid_argument', `${what}.credifyId must be a non-empty string when set`);
  }
}

/**
 * The text a missing value becomes (`String(undefined)`, `${null}`): never a service user ID. The
 * caller stores the returned ID on its user, so such a value would be kept and pushed as if real.
 */
function isStringifiedNothing(value: string): boolean {
  return /^(undefined|null|nan|\[object object\])$/i.test(value.trim());
}

export async function getBnplAvailability(api: ServiceApi, user: BnplUser): Promise<BnplAvailability> {
  assertUser(user);
  // Only the IDs and the phone the offers endpoint takes (WIRE §6); names and email stay here.
  const data = await api.post(OFFERS_PATH, {
    local_id: user.id,
    credify_id: user.credifyId,
    phone_number: user.phoneNumber,
    country_code: user.countryCode,
    product_types: [BNPL_PRODUCT_TYPE],
  });
  if (!isRecord(data) || !Array.isArray(data.offers)) {
    throw new BnplSdkError('invalid_response', `${OFFERS_PATH} answered without an offers list`);
  }
  const credifyId = data.credify_id;
  const hasId = typeof credifyId === 'string' && credifyId !== '' && !isStringifiedNothing(credifyId);
  if (credifyId !== undefined && credifyId !== null && !hasId) {
    throw new BnplSdkError(
      'invalid_response',
      `${OFFERS_PATH} answered a credify_id that is not an identifier: ${JSON.stringify(credifyId).slice(0, 40)}`,
    );
  }
  const isAvailable = data.offers.length > 0;
  // Offers without a service user ID could not be used: presentModally and passport need it.
  if (isAvailable && !hasId) {
    throw new BnplSdkError('invalid_response', `${OFFERS_PATH} answered offers without a credify_id`);
  }
  return { isAvailable, credifyId: hasId ? credifyId : null };
}
