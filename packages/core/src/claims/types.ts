/**
 * The claim object a data-sharing market hands to providers (WIRE §7):
 * `{ [scopeName]: { [claimKey]: value, [commitmentKey]?: commitment } }`.
 * Values are arbitrary JSON because custom scopes are whatever the market registered in the dashboard.
 */
import * as z from 'zod';
import type { BasicProfileKey } from '../models/config.js';

export const claimValueSchema = z.json();
export type ClaimValue = z.infer<typeof claimValueSchema>;

/** One scope's claims, including its commitment entry when commitments were requested. */
const scopeClaimsSchema = z.record(z.string().min(1), claimValueSchema);
export type ScopeClaims = Record<string, ClaimValue>;

export const claimObjectSchema = z.record(z.string().min(1), scopeClaimsSchema);
export type ClaimObject = Record<string, ScopeClaims>;

/** Standard (OpenID-style) scopes and the basic profile key that feeds each one. */
export const STANDARD_SCOPES = ['phone', 'profile', 'email', 'address'] as const;
export type StandardScope = (typeof STANDARD_SCOPES)[number];

export const STANDARD_SCOPE_OF: Readonly<Record<BasicProfileKey, StandardScope>> = {
  phone: 'phone',
  name: 'profile',
  email: 'email',
  address: 'address',
};

const text = z.string().trim().min(1);

/**
 * The user's basic profile as the market knows it. A full name is kept whole (OIDC `name`) because
 * splitting it is locale-dependent: Vietnamese names put the family name first.
 */
export const basicProfileSchema = z.object({
  /** E.164 (`+84901234567`), or country code and national number kept apart as many markets store it. */
  phone: z.union([text, z.object({ countryCode: text, number: text })]).optional(),
  name: z
    .object({ given: text.optional(), family: text.optional(), full: text.optional() })
    .refine((n) => n.given !== undefined || n.family !== undefined || n.full !== undefined, {
      error: 'a name needs given, family or full',
    })
    .optional(),
  email: text.optional(),
  address: z.union([text, z.object({ formatted: text })]).optional(),
});
export type BasicProfile = z.input<typeof basicProfileSchema>;

export type CustomScopeData = Record<string, Record<string, ClaimValue>>;

export interface BuildClaimObjectInput {
  /** The market's organisation ID (`APP_ID`). */
  organizationId: string;
  profile?: BasicProfile;
  /** `APP_PROVIDING_BASIC_PROFILE`: an array or the comma-separated string from the environment. */
  providingBasicProfile?: readonly string[] | string;
  customScopes?: CustomScopeData;
  /** Scopes to include, by full scope name or bare scope key; empty or missing means all. */
  scopes?: readonly string[];
  /** Commitments already stored, keyed by scope name; used as they are. */
  commitments?: Readonly<Record<string, string>>;
  /** Generate a fresh commitment for every included scope that `commitments` does not cover. */
  withCommitments?: boolean;
}
