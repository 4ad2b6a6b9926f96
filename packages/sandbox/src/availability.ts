/**
 * The availability check (`POST /v1/claim-providers/offers`) and the token introspection that goes
 * with it. Per the specification: no offers unless the organisation is whitelisted; the service user
 * is found or created for the market's local user ID; in data-sharing mode the market's registered
 * offer filtering endpoint ranks the approved offers, called with a bearer token the sandbox issued
 * (scope `claim_provider:read_filtered_offers`) that the market checks at `POST /v1/oauth2/introspect`.
 */
import {
  type AvailabilityInput,
  type AvailabilityResult,
  filterOffersResponseSchema,
  READ_FILTERED_OFFERS_SCOPE,
  type TokenIntrospection,
} from '@bnpl-kit/core/wire';
import type { Clock } from './clock.js';
import { ServiceFailure } from './http.js';
import { type Organization, offersWithoutClaims } from './organizations.js';
import { type SandboxState, type ServiceUser, serviceId } from './state.js';
import type { TokenIssuer } from './tokens.js';

export interface AvailabilityDeps {
  state: SandboxState;
  clock: Clock;
  tokens: TokenIssuer;
  fetch: typeof fetch;
  offerFilteringTimeoutMs: number;
}

function findOrCreateUser(
  deps: AvailabilityDeps,
  organization: Organization,
  input: AvailabilityInput,
): ServiceUser {
  const known = input.credifyId ? deps.state.users.get(input.credifyId) : undefined;
  if (known && known.organizationId === organization.id) return known;
  const existing = deps.state.userByLocalId(organization.id, input.localId);
  if (existing) return existing;
  const { localId, phoneNumber, countryCode } = input;
  const createdAt = deps.clock.now();
  const user: ServiceUser = {
    credifyId: serviceId('crf'),
    organizationId: organization.id,
    localId,
    phoneNumber,
    countryCode,
    createdAt,
  };
  deps.state.users.set(user.credifyId, user);
  return user;
}

async function askMarketToRank(
  deps: AvailabilityDeps,
  organization: Organization,
  url: string,
  user: ServiceUser,
): Promise<Record<string, unknown>[]> {
  const token = deps.tokens.issue(organization.id, [READ_FILTERED_OFFERS_SCOPE], 'offer-filter');
  const body = JSON.stringify({
    credify_id: user.credifyId,
    local_id: user.localId,
    offers: organization.approvedOffers,
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deps.offerFilteringTimeoutMs);
  let status: number;
  let json: unknown;
  try {
    const response = await deps.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${token.value}`,
      },
      body,
      signal: controller.signal,
    });
    status = response.status;
    json = await response.json().catch(() => undefined);
  } catch {
    const why = controller.signal.aborted
      ? `did not answer within ${deps.offerFilteringTimeoutMs} ms`
      : 'is unreachable';
    throw new ServiceFailure(
      502,
      'OFFER_FILTERING_FAILED',
      `The market's offer filtering endpoint ${url} ${why}`,
    );
  } finally {
    clearTimeout(timer);
  }
  if (status < 200 || status > 299) {
    throw new ServiceFailure(
      502,
      'OFFER_FILTERING_FAILED',
      `The market's offer filtering endpoint answered HTTP ${status}`,
    );
  }
  const parsed = filterOffersResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServiceFailure(
      502,
      'OFFER_FILTERING_FAILED',
      `The market's offer filtering answer is not { data: { offers } }: ${issue?.path.join('.')} ${issue?.message}`,
    );
  }
  return parsed.data.data.offers;
}

export async function checkAvailability(
  deps: AvailabilityDeps,
  organization: Organization,
  input: AvailabilityInput,
): Promise<AvailabilityResult> {
  const user = findOrCreateUser(deps, organization, input);
  if (!organization.whitelisted || organization.approvedOffers.length === 0) {
    return { offers: [], credifyId: user.credifyId };
  }
  const offers = organization.offerFilteringUrl
    ? await askMarketToRank(deps, organization, organization.offerFilteringUrl, user)
    : offersWithoutClaims(organization);
  deps.state.rankedOffers.set(user.credifyId, offers);
  return { offers, credifyId: user.credifyId };
}

/** RFC 7662-style: only the organisation a token was issued for learns that it is active. */
export function introspect(
  deps: AvailabilityDeps,
  organization: Organization,
  token: string,
  scope: string,
): TokenIntrospection {
  const record = deps.tokens.active(token);
  const wanted = scope.split(/\s+/).filter(Boolean);
  if (
    !record ||
    record.organizationId !== organization.id ||
    !wanted.every((s) => record.scopes.includes(s))
  ) {
    return { active: false, scope: '' };
  }
  return {
    active: true,
    scope: record.scopes.join(' '),
    aud: organization.id,
    exp: Math.floor(record.expiresAt / 1000),
    sub: organization.id,
  };
}
