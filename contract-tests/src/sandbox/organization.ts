/**
 * The market's organisation at the service: the suite acting as the SDK (API token, availability,
 * which creates the service user), and the organisation's records (approved offers, claim key and
 * tokens, the token the service sends with an offer filtering call).
 */
import type { AvailabilityAnswer, ContractSandbox } from './driver.js';
import { type Json, type SandboxClient, SandboxRequestError } from './sandbox-client.js';
import { claimTokenView, recordsIn } from './views.js';

export type OrganizationRecords = Pick<
  ContractSandbox,
  | 'availability'
  | 'serviceUserId'
  | 'setApprovedOffers'
  | 'apiAccessToken'
  | 'claimTokens'
  | 'claimPublicKey'
  | 'offerFilterToken'
  | 'revokeAccessTokens'
>;

export interface OrganizationOptions {
  organizationId: string;
  /** An API key of the organisation with `claim_provider` (for availability). */
  apiKey: string;
}

export function organizationRecords(
  client: SandboxClient,
  options: OrganizationOptions,
): OrganizationRecords {
  const org = encodeURIComponent(options.organizationId);

  async function accessToken(): Promise<string> {
    const answer = await client.call('POST', '/v1/token', undefined, { 'x-api-key': options.apiKey });
    const token = (answer.json.data as Json | undefined)?.access_token;
    if (answer.status !== 200 || typeof token !== 'string') {
      throw new SandboxRequestError(
        `The sandbox refused the API key (${answer.status}): ${answer.text.slice(0, 200)}`,
      );
    }
    return token;
  }

  async function availability(localId: string): Promise<AvailabilityAnswer> {
    const token = await accessToken();
    const answer = await client.call(
      'POST',
      '/v1/claim-providers/offers',
      { local_id: localId, product_types: ['consumerBNPL'] },
      { authorization: `Bearer ${token}` },
    );
    const data = (answer.json.data ?? {}) as Json;
    const errors = answer.json.errors as Json[] | undefined;
    return {
      status: answer.status,
      credifyId: typeof data.credify_id === 'string' ? data.credify_id : undefined,
      offers: Array.isArray(data.offers) ? (data.offers as Record<string, unknown>[]) : [],
      error: errors?.map((e) => String(e.message)).join('; '),
    };
  }

  const organization = () => client.admin('GET', `/sandbox/organizations/${org}`);

  return {
    availability,
    apiAccessToken: accessToken,
    async serviceUserId(localId) {
      const answer = await availability(localId);
      if (answer.credifyId) return answer.credifyId;
      // The availability answer may have failed (e.g. the market's offer filter did); the user exists anyway.
      const json = await client.admin('GET', '/sandbox/users');
      const user = recordsIn(json, 'users').find(
        (u) => u.local_id === localId && u.organization_id === options.organizationId,
      );
      if (typeof user?.credify_id !== 'string') {
        throw new SandboxRequestError(
          `The sandbox has no service user for ${localId}: ${answer.error ?? answer.status}`,
        );
      }
      return user.credify_id;
    },
    async setApprovedOffers(offers) {
      const before = await organization();
      await client.admin('PATCH', `/sandbox/organizations/${org}`, { approved_offers: offers });
      return (before.approved_offers ?? []) as Record<string, unknown>[];
    },
    async claimTokens(credifyId) {
      const json = await client.admin('GET', `/sandbox/claims/${encodeURIComponent(credifyId)}`);
      return recordsIn(json, 'claim_tokens').map(claimTokenView);
    },
    async claimPublicKey() {
      const json = await organization();
      return typeof json.public_key === 'string' ? json.public_key : undefined;
    },
    async offerFilterToken() {
      const json = await client.admin('POST', `/sandbox/organizations/${org}/offer-filter-token`, {});
      return String(json.access_token);
    },
    async revokeAccessTokens() {
      await client.admin('DELETE', `/sandbox/organizations/${org}/access-tokens`);
    },
  };
}
