/**
 * Organisations: what a market sets up in the service "dashboard" (specification, "What the service
 * does" 7). Given in code as camelCase options, or as snake_case JSON through the admin API and the
 * CLI's `--config` file; both go through one codec.
 */
import { BASIC_PROFILE_KEYS, type BasicProfileKey } from '@bnpl-kit/core';
import {
  base64UrlEncode,
  CLAIM_PROVIDER_PERMISSION,
  field,
  parseWire,
  wireObject,
} from '@bnpl-kit/core/wire';
import { z } from 'zod';

const httpUrl = z
  .string()
  .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), { error: 'must be an absolute http(s) URL' })
  // The refine as the admin document says it (that the rest parses is the format).
  .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });

const apiKeyText = z.string().min(8, { error: 'an API key has at least 8 characters' });
// The wire and model names of an API key are the same words, so no codec is needed.
const apiKeySchema = z.union([
  apiKeyText,
  z.object({ key: apiKeyText, permissions: z.array(z.string().min(1)).optional() }),
]);

/** Offers are kept as given: the service sends campaign details the market must echo back untouched. */
const offerSchema = z.looseObject({ code: z.string().min(1) });

export const organizationCodec = wireObject({
  id: field(
    'id',
    z
      .string()
      .min(1)
      .max(128)
      .refine((id) => !id.includes(':') && !id.includes('/'), { error: 'must not contain ":" or "/"' }),
  ),
  name: field('name', z.string().min(1).optional()),
  apiKeys: field('api_keys', z.array(apiKeySchema).optional()),
  apiBaseUrl: field('api_base_url', httpUrl.optional()),
  webhookUrls: field('webhook_urls', z.array(httpUrl).optional()),
  offerFilteringUrl: field('offer_filtering_url', httpUrl.optional()),
  basicProfileKeys: field('basic_profile_keys', z.array(z.enum(BASIC_PROFILE_KEYS)).optional()),
  whitelisted: field('whitelisted', z.boolean().optional()),
  approvedOffers: field('approved_offers', z.array(offerSchema).optional()),
  publicKey: field('public_key', z.string().min(1).optional()),
  signingKey: field('signing_key', z.string().min(1).optional()),
});

export interface ApiKey {
  key: string;
  permissions: string[];
}

export interface OrganizationInput {
  id: string;
  name?: string | undefined;
  /** A bare string is a key with the `claim_provider` permission. Default: one generated key. */
  apiKeys?: (string | { key: string; permissions?: string[] | undefined })[] | undefined;
  apiBaseUrl?: string | undefined;
  /** Every event is delivered to each of these URLs (the URL is part of the signed message). */
  webhookUrls?: string[] | undefined;
  /** Set in data-sharing mode: availability then asks the market to rank the offers. */
  offerFilteringUrl?: string | undefined;
  basicProfileKeys?: BasicProfileKey[] | undefined;
  /** Availability answers no offers unless whitelisted. Default true (the sandbox's operator is you). */
  whitelisted?: boolean | undefined;
  approvedOffers?: Record<string, unknown>[] | undefined;
  /** Verifies pushed claim tokens: base64url raw key or PEM SPKI. */
  publicKey?: string | undefined;
  /** The organisation's signing key (PKCS#8 PEM or base64url seed); its public key is derived. */
  signingKey?: string | undefined;
}

export interface Organization {
  id: string;
  name: string;
  apiKeys: ApiKey[];
  apiBaseUrl: string | undefined;
  webhookUrls: string[];
  offerFilteringUrl: string | undefined;
  basicProfileKeys: BasicProfileKey[];
  whitelisted: boolean;
  approvedOffers: Record<string, unknown>[];
  publicKey: string | undefined;
  signingKey: string | undefined;
}

export const DEFAULT_OFFERS: readonly Record<string, unknown>[] = [
  {
    code: 'sandbox-pay-in-3',
    name: 'Pay later in 3 monthly instalments',
    provider: { id: 'sandbox-provider', name: 'Sandbox BNPL provider' },
    product_type: 'consumerBNPL',
    conditions: [],
    required_custom_scopes: [],
  },
];

/**
 * Whether an offer can only be given after the market's claims are evaluated: it has conditions or
 * needs custom scopes. Without an offer filtering endpoint (basic mode: no data is shared) nobody can
 * evaluate them, so such an offer is never offered.
 */
export function needsMarketClaims(offer: Record<string, unknown>): boolean {
  const conditions = offer.conditions;
  const scopes = offer.required_custom_scopes;
  const nonEmpty = (value: unknown) =>
    Array.isArray(value) && value.some((item) => !Array.isArray(item) || item.length > 0);
  return nonEmpty(conditions) || nonEmpty(scopes);
}

/** The approved offers a market without offer filtering may be given. */
export function offersWithoutClaims(organization: Organization): Record<string, unknown>[] {
  return organization.approvedOffers.filter((offer) => !needsMarketClaims(offer));
}

export function generateApiKey(): string {
  return `sk_sandbox_${base64UrlEncode(crypto.getRandomValues(new Uint8Array(18)))}`;
}

/** Fills the defaults; `previous` keeps what a partial update (PATCH) does not mention. */
export function normalizeOrganization(input: OrganizationInput, previous?: Organization): Organization {
  const keys = input.apiKeys?.map((k) =>
    typeof k === 'string'
      ? { key: k, permissions: [CLAIM_PROVIDER_PERMISSION] }
      : { key: k.key, permissions: k.permissions ?? [CLAIM_PROVIDER_PERMISSION] },
  );
  return {
    id: input.id,
    name: input.name ?? previous?.name ?? input.id,
    apiKeys: keys ??
      previous?.apiKeys ?? [{ key: generateApiKey(), permissions: [CLAIM_PROVIDER_PERMISSION] }],
    apiBaseUrl: input.apiBaseUrl ?? previous?.apiBaseUrl,
    webhookUrls: input.webhookUrls ?? previous?.webhookUrls ?? [],
    offerFilteringUrl: input.offerFilteringUrl ?? previous?.offerFilteringUrl,
    basicProfileKeys: input.basicProfileKeys ?? previous?.basicProfileKeys ?? [],
    whitelisted: input.whitelisted ?? previous?.whitelisted ?? true,
    approvedOffers: input.approvedOffers ?? previous?.approvedOffers ?? DEFAULT_OFFERS.map((o) => ({ ...o })),
    publicKey: input.publicKey ?? (input.signingKey ? undefined : previous?.publicKey),
    signingKey: input.signingKey ?? (input.publicKey ? undefined : previous?.signingKey),
  };
}

/** Parses snake_case JSON (admin API, config file) into an input; `id` comes from the path when given. */
export function parseOrganizationJson(json: unknown, id?: string): OrganizationInput {
  const withId = id !== undefined && typeof json === 'object' && json !== null ? { ...json, id } : json;
  return parseWire(organizationCodec.schema, withId, 'Organization') as OrganizationInput;
}

/** The snake_case view for the admin API. The signing key is never part of it. */
export function organizationView(
  org: Organization,
  derivedPublicKey: string | undefined,
): Record<string, unknown> {
  return {
    id: org.id,
    name: org.name,
    integration_mode: org.offerFilteringUrl ? 'data-sharing' : 'basic',
    api_keys: org.apiKeys.map((k) => ({ key: k.key, permissions: k.permissions })),
    api_base_url: org.apiBaseUrl ?? null,
    webhook_urls: org.webhookUrls,
    offer_filtering_url: org.offerFilteringUrl ?? null,
    basic_profile_keys: org.basicProfileKeys,
    whitelisted: org.whitelisted,
    approved_offers: org.approvedOffers,
    public_key: derivedPublicKey ?? null,
    has_signing_key: org.signingKey !== undefined,
  };
}
