/**
 * Builds the claim object of one user (the `fetchUserClaimObject` hook's job, WIRE §7), so every
 * market gets the naming, the scope filter and the commitment entries right without re-deriving them.
 */
import * as z from 'zod';
import { BASIC_PROFILE_KEYS, type BasicProfileKey } from '../models/config.js';
import { parseWire } from '../models/wire.js';
import { generateCommitment } from './commitment.js';
import { commitmentKeyFor, customClaimKey, customScopeName, scopeFilter } from './names.js';
import {
  type BuildClaimObjectInput,
  basicProfileSchema,
  type ClaimObject,
  type ClaimValue,
  claimValueSchema,
  type ScopeClaims,
  STANDARD_SCOPE_OF,
} from './types.js';

const keyText = z.string().trim().min(1, { error: 'must not be empty' });

const providingSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => {
    const items = v === undefined ? [] : typeof v === 'string' ? v.split(',') : v;
    return items.map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0);
  })
  .pipe(
    z.array(
      z.enum(BASIC_PROFILE_KEYS, {
        error: (issue) =>
          `"${String(issue.input)}" is not a basic profile key; use ${BASIC_PROFILE_KEYS.join(', ')}`,
      }),
    ),
  );

const inputSchema = z.object({
  organizationId: z
    .string({ error: 'the organisation ID (APP_ID) is required' })
    .trim()
    .min(1, { error: 'the organisation ID (APP_ID) is required' })
    // Scope and claim names are split at the first colon, so the ID itself cannot hold one.
    .refine((id) => !id.includes(':'), { error: 'the organisation ID must not contain ":"' }),
  profile: basicProfileSchema.optional(),
  providingBasicProfile: providingSchema,
  // `undefined` values are dropped rather than rejected: an unset column means "nothing to share".
  customScopes: z.record(keyText, z.record(keyText, claimValueSchema.optional())).optional(),
  scopes: z.array(z.string()).optional(),
  commitments: z.record(keyText, keyText).optional(),
  withCommitments: z.boolean().optional(),
});

type ParsedProfile = z.output<typeof basicProfileSchema>;

function standardClaims(key: BasicProfileKey, profile: ParsedProfile): ScopeClaims | undefined {
  switch (key) {
    case 'phone': {
      const phone = profile.phone;
      if (phone === undefined) return undefined;
      return { phone_number: typeof phone === 'string' ? phone : `${phone.countryCode}${phone.number}` };
    }
    case 'name': {
      const name = profile.name;
      if (name === undefined) return undefined;
      const claims: ScopeClaims = {};
      if (name.given !== undefined) claims.given_name = name.given;
      if (name.family !== undefined) claims.family_name = name.family;
      if (name.full !== undefined) claims.name = name.full;
      return claims;
    }
    case 'email':
      return profile.email === undefined ? undefined : { email: profile.email };
    case 'address': {
      const address = profile.address;
      if (address === undefined) return undefined;
      return { address: { formatted: typeof address === 'string' ? address : address.formatted } };
    }
  }
}

/**
 * Returns `{ [scopeName]: { [claimKey]: value, [commitmentKey]?: commitment } }`. Standard scopes
 * appear only for the basic profile keys the market provides and only when the user has the data;
 * custom scope names and claim keys are qualified with the organisation ID. Throws
 * `KitError('validation_failed')` listing every problem of the input at once.
 */
export function buildClaimObject(input: BuildClaimObjectInput): ClaimObject {
  const parsed = parseWire(inputSchema, input, 'Claim input');
  const org = parsed.organizationId;
  const included = scopeFilter(parsed.scopes);
  const scopes = new Map<string, ScopeClaims>();

  const profile = parsed.profile ?? {};
  for (const key of new Set(parsed.providingBasicProfile)) {
    const scopeName = STANDARD_SCOPE_OF[key];
    if (!included(scopeName)) continue;
    const claims = standardClaims(key, profile);
    if (claims !== undefined) scopes.set(scopeName, claims);
  }

  for (const [scopeKey, data] of Object.entries(parsed.customScopes ?? {})) {
    const scopeName = customScopeName(org, scopeKey);
    if (!included(scopeName)) continue;
    const claims: ScopeClaims = { ...scopes.get(scopeName) };
    for (const [claimKey, value] of Object.entries(data)) {
      if (value !== undefined) claims[customClaimKey(org, claimKey)] = value as ClaimValue;
    }
    // A scope without a single claim shares nothing, so it is not sent at all.
    if (Object.keys(claims).length > 0) scopes.set(scopeName, claims);
  }

  const out: ClaimObject = {};
  for (const [scopeName, claims] of scopes) {
    const commitment =
      parsed.commitments?.[scopeName] ?? (parsed.withCommitments ? generateCommitment() : undefined);
    out[scopeName] =
      commitment === undefined ? claims : { ...claims, [commitmentKeyFor(scopeName)]: commitment };
  }
  return out;
}
