/**
 * Claim tokens (WIRE §7): one EdDSA JWT per scope, `{ iat, iss, user_id, scope_name, scope_hash }`,
 * pushed to the service so a provider can later prove the claims it received came from the market.
 */
import type { ProtectedHeaderParameters } from 'jose';
import * as z from 'zod';
import { KitError } from '../errors.js';
import { parseWire } from '../models/wire.js';
import { parseSigningKey } from '../signature/keys.js';
import { allScopesHash, type ClaimScopeHash } from './all-scopes-hash.js';
import { scopeHash as hashScope } from './canonical.js';
import { loadJose } from './jose.js';
import { commitmentKeyFor } from './names.js';
import { importSigningSeed, importVerifyKey } from './token-keys.js';
import type { ClaimObject } from './types.js';

const nonEmpty = z.string().min(1, { error: 'must not be empty' });
const SCOPE_HASH = /^[A-Za-z0-9_-]{43}$/;

const claimTokenPayloadSchema = z.object({
  iat: z.number().int().nonnegative(),
  iss: nonEmpty,
  user_id: nonEmpty,
  scope_name: nonEmpty,
  scope_hash: z.string().regex(SCOPE_HASH, { error: 'must be base64url of a SHA-256 digest' }),
});
export type ClaimTokenPayload = z.infer<typeof claimTokenPayloadSchema>;

/** A signing key as `APP_SIGNING_KEY` gives it (PKCS#8 PEM, with or without BEGIN/END) or the raw seed. */
export type SigningKeyInput = string | Uint8Array;

export interface SignClaimTokenInput {
  organizationId: string;
  credifyId: string;
  scopeName: string;
  scopeHash: string;
  signingKey: SigningKeyInput;
  /** Seconds since the epoch; now when omitted. */
  iat?: number;
}

const signInputSchema = z.object({
  organizationId: nonEmpty,
  credifyId: nonEmpty,
  scopeName: nonEmpty,
  scopeHash: z.string().regex(SCOPE_HASH, { error: 'must be base64url of a SHA-256 digest' }),
  iat: z.number().int().nonnegative().optional(),
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export async function signClaimToken(input: SignClaimTokenInput): Promise<string> {
  const { signingKey, ...rest } = input;
  const parsed = parseWire(signInputSchema, rest, 'Claim token input');
  const key = await importSigningSeed(parseSigningKey(signingKey));
  const payload: ClaimTokenPayload = {
    iat: parsed.iat ?? nowSeconds(),
    iss: parsed.organizationId,
    user_id: parsed.credifyId,
    scope_name: parsed.scopeName,
    scope_hash: parsed.scopeHash,
  };
  const { SignJWT } = await loadJose();
  return new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' }).sign(key);
}

export interface VerifyClaimTokenOptions {
  organizationId?: string;
  credifyId?: string;
  scopeName?: string;
  scopeHash?: string;
}

function rejected(reason: string, message: string, cause?: unknown): KitError {
  return new KitError('validation_failed', `Claim token rejected: ${message}`, {
    errors: [{ path: 'claim_token', message }],
    extensions: { reason },
    cause,
  });
}

/** RFC 7515's compact serialisation: three base64url segments, their `=` padding left out. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Verifies signature, header and payload shape, then the expected values that were given. Every
 * failure is a `validation_failed` KitError whose `reason` extension says which check failed.
 */
export async function verifyClaimToken(
  jwt: string,
  publicKey: string | Uint8Array,
  options: VerifyClaimTokenOptions = {},
): Promise<ClaimTokenPayload> {
  // RFC 7515's compact form: three base64url segments, their padding left out. jose also reads a
  // padded segment, which a strict verifier (Go's RawURLEncoding) refuses, so the syntax is ours.
  if (!COMPACT_JWS.test(jwt))
    throw rejected('malformed', 'not a compact JWS (three base64url segments, no padding)');
  const key = await importVerifyKey(publicKey);
  const { decodeProtectedHeader, jwtVerify } = await loadJose();
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(jwt);
  } catch (error) {
    throw rejected('malformed', 'not a compact JWS', error);
  }
  if (header.alg !== 'EdDSA' || header.typ !== 'JWT') {
    throw rejected('header', 'header must be {"alg":"EdDSA","typ":"JWT"}');
  }
  let raw: unknown;
  try {
    raw = (await jwtVerify(jwt, key, { algorithms: ['EdDSA'], typ: 'JWT' })).payload;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
      throw rejected('signature', 'signature does not verify');
    throw rejected('malformed', 'not a valid JWT', error);
  }
  const result = claimTokenPayloadSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw rejected('payload', `payload ${issue?.path.join('.') || ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const payload = result.data;
  const expect = (reason: string, field: string, actual: string, expected: string | undefined) => {
    if (expected !== undefined && actual !== expected) throw rejected(reason, `${field} does not match`);
  };
  expect('issuer', 'iss', payload.iss, options.organizationId);
  expect('user_id', 'user_id', payload.user_id, options.credifyId);
  expect('scope_name', 'scope_name', payload.scope_name, options.scopeName);
  expect('scope_hash', 'scope_hash', payload.scope_hash, options.scopeHash);
  return payload;
}

export interface BuildClaimTokensInput {
  claims: ClaimObject;
  organizationId: string;
  credifyId: string;
  signingKey: SigningKeyInput;
  iat?: number;
  /** `per-scope` (default) or the prior art's `all-scopes` hash (WIRE §7, `CLAIM_SCOPE_HASH`). */
  scopeHashMode?: ClaimScopeHash;
}

export interface ClaimTokenEntry {
  scopeName: string;
  scopeHash: string;
  token: string;
  /** The scope's commitment as carried in the claim object, for the market to store. */
  commitment: string | undefined;
}

function commitmentOf(claims: ClaimObject, scopeName: string): string | undefined {
  const commitment = claims[scopeName]?.[commitmentKeyFor(scopeName)];
  return typeof commitment === 'string' ? commitment : undefined;
}

async function hashFor(input: BuildClaimTokensInput, scopeName: string): Promise<string> {
  const scopeClaims = input.claims[scopeName] ?? {};
  if (input.scopeHashMode !== 'all-scopes') return hashScope(scopeClaims);
  const commitment = commitmentOf(input.claims, scopeName);
  if (commitment === undefined) {
    throw new KitError(
      'validation_failed',
      `The all-scopes scope hash needs a commitment in every scope; ${JSON.stringify(scopeName)} has none`,
      { errors: [{ path: `${scopeName}.${commitmentKeyFor(scopeName)}`, message: 'required' }] },
    );
  }
  return allScopesHash(input.claims, scopeName, commitment);
}

/**
 * One token per scope of the claim object, each over that scope's own hash (or, with
 * `scopeHashMode: 'all-scopes'`, over the prior art's hash of the whole object).
 */
export async function buildClaimTokens(input: BuildClaimTokensInput): Promise<ClaimTokenEntry[]> {
  // Parse once so a bad key fails before any work, and every token shares one import.
  const seed = parseSigningKey(input.signingKey);
  const iat = input.iat ?? nowSeconds();
  return Promise.all(
    Object.keys(input.claims).map(async (scopeName) => {
      const hash = await hashFor(input, scopeName);
      const token = await signClaimToken({
        organizationId: input.organizationId,
        credifyId: input.credifyId,
        scopeName,
        scopeHash: hash,
        signingKey: seed,
        iat,
      });
      return { scopeName, scopeHash: hash, token, commitment: commitmentOf(input.claims, scopeName) };
    }),
  );
}
