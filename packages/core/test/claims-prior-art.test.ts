/**
 * Interop with the prior-art service (WIRE §7, §4): `CLAIM_SCOPE_HASH=all-scopes` must give the
 * prior art's `scope_hash` byte for byte, and the webhook signing string, body digest and Ed25519
 * signatures must agree with the prior art's own library, `@credify/crypto` (a devDependency used
 * only here). Its `generateClaimToken` is what the prior art's `claims.push` calls with the WHOLE
 * claim object (no commitment entries) for every scope.
 */
import { readFileSync } from 'node:fs';
import { generateClaimToken, parseJwt, sha256 as priorArtSha256, Signing } from '@credify/crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { allScopesHash } from '../src/claims/all-scopes-hash.js';
import { scopeHash } from '../src/claims/canonical.js';
import { commitmentKeyFor } from '../src/claims/names.js';
import { buildClaimTokens } from '../src/claims/token.js';
import type { ClaimObject } from '../src/claims/types.js';
import { KitError } from '../src/errors.js';
import { webhookBodyDigest } from '../src/signature/digest.js';
import { webhookMessage } from '../src/signature/message.js';
import { ed25519Sign } from '../src/testing.js';
import { base64UrlDecode, base64UrlEncode, utf8 } from '../src/util/base64url.js';

interface WebhookCase {
  name: string;
  expect: 'valid' | 'invalid';
  webhook_url: string;
  headers: Record<string, string>;
  body_base64: string;
}
const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/webhook-and-claims.json', import.meta.url), 'utf8'),
) as { public_key_pem: string; signing_key_pkcs8_pem: string; webhook_cases: WebhookCase[] };

const ORG = '3b36d4f6-610e-4a16-924a-0a6766203439';
const USER = 'ba3d1f1a-57eb-4fc2-a6aa-dfaf4a359512';

function priorArtSigning(): Signing {
  const signing = new Signing();
  signing.importPrivateKey(vectors.signing_key_pkcs8_pem);
  return signing;
}

/** The prior art's hash for one scope: it generates the token from claims WITHOUT commitment entries. */
function priorArtScopeHash(claims: ClaimObject, scopeName: string, commitment: string): string {
  const withoutCommitments = Object.fromEntries(
    Object.entries(claims).map(([name, scope]) => [
      name,
      Object.fromEntries(Object.entries(scope).filter(([key]) => key !== commitmentKeyFor(name))),
    ]),
  );
  const { token } = generateClaimToken(
    priorArtSigning(),
    ORG,
    USER,
    scopeName,
    withoutCommitments,
    commitment,
  );
  // The library types its payload as an access token's; a claim token's carries `scope_hash`.
  const payload: Record<string, unknown> = { ...parseJwt(token as string).payload };
  return payload.scope_hash as string;
}

const C1 = 'q2cH9lP0w7oVZb3nX1kM4rT8sY6uJ5eA0dF2gH3iK4l';
const C2 = 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7Zy6x';
const C3 = 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hI5kL7nO9q';

/** Claim objects as the push-claims route builds them: a commitment inside every scope. */
const CASES: Record<string, ClaimObject> = {
  'one standard scope': { phone: { phone_number: '+84901234567', phone_commitment: C1 } },
  'standard and custom scopes': {
    profile: { given_name: 'Văn Demo', family_name: 'Nguyễn', profile_commitment: C1 },
    email: { email: 'demo@example.com', email_commitment: C2 },
    [`${ORG}:loyalty`]: {
      [`${ORG}:tier`]: 'gold',
      [`${ORG}:points`]: 12500,
      [`${ORG}:verified`]: true,
      [`${ORG}:loyalty:commitment`]: C3,
    },
  },
  'nested values, nulls, unicode and escapes': {
    address: { address: { formatted: '1 Lê Lợi, Q1, "HCMC"\n' }, address_commitment: C1 },
    [`${ORG}:history`]: {
      [`${ORG}:orders`]: [{ z: 1, a: null }, 2.5, 'x', [3, [4]]],
      [`${ORG}:note`]: null,
      [`${ORG}:history:commitment`]: C2,
    },
  },
  'integer-like keys and arrays of arrays': {
    [`${ORG}:matrix`]: {
      [`${ORG}:grid`]: [
        [1, 2],
        [3, 4],
      ],
      [`${ORG}:by_month`]: { '10': 5, '2': 7, b: 1, A: 2 },
      [`${ORG}:matrix:commitment`]: C3,
    },
  },
};

describe('CLAIM_SCOPE_HASH=all-scopes against @credify/crypto', () => {
  for (const [name, claims] of Object.entries(CASES)) {
    it(`gives the prior art's scope_hash for every scope: ${name}`, async () => {
      const tokens = await buildClaimTokens({
        claims,
        organizationId: ORG,
        credifyId: USER,
        signingKey: vectors.signing_key_pkcs8_pem,
        scopeHashMode: 'all-scopes',
      });
      expect(tokens.map((t) => t.scopeName)).toEqual(Object.keys(claims));
      for (const token of tokens) {
        const commitment = claims[token.scopeName]![commitmentKeyFor(token.scopeName)] as string;
        const expected = priorArtScopeHash(claims, token.scopeName, commitment);
        expect(token.scopeHash).toBe(expected);
        expect(decodeJwt(token.token).scope_hash).toBe(expected);
        expect(await allScopesHash(claims, token.scopeName, commitment)).toBe(expected);
      }
    });
  }

  it('keeps the per-scope default, which differs from the prior art once there are two scopes', async () => {
    const claims = CASES['standard and custom scopes']!;
    const tokens = await buildClaimTokens({
      claims,
      organizationId: ORG,
      credifyId: USER,
      signingKey: vectors.signing_key_pkcs8_pem,
    });
    for (const token of tokens) {
      expect(token.scopeHash).toBe(await scopeHash(claims[token.scopeName]!));
      expect(token.scopeHash).not.toBe(priorArtScopeHash(claims, token.scopeName, token.commitment!));
    }
  });

  it('refuses all-scopes hashing of a scope without a commitment (the prior art always has one)', async () => {
    const build = buildClaimTokens({
      claims: { phone: { phone_number: '+84901234567' } },
      organizationId: ORG,
      credifyId: USER,
      signingKey: vectors.signing_key_pkcs8_pem,
      scopeHashMode: 'all-scopes',
    });
    await expect(build).rejects.toBeInstanceOf(KitError);
    await expect(build).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

describe('webhook signing against @credify/crypto', () => {
  const valid = vectors.webhook_cases.filter((c) => c.expect === 'valid');

  it('has valid vectors to check', () => {
    expect(valid.length).toBeGreaterThan(0);
  });

  for (const c of valid) {
    it(`agrees on digest, signing string and signature: ${c.name}`, async () => {
      const body = Buffer.from(c.body_base64, 'base64');
      const digest = await webhookBodyDigest(new Uint8Array(body));
      // The prior art digests the body text it is given; on the raw text it agrees with the kit.
      expect(priorArtSha256(body.toString('utf8'))).toBe(digest);
      const message = webhookMessage({
        method: 'POST',
        url: c.webhook_url,
        eventId: c.headers['X-Event-Id']!,
        timestamp: c.headers['X-Event-Timestamp']!,
        bodyDigest: digest,
      });
      const signing = priorArtSigning();
      // Ed25519 is deterministic: both libraries sign the signing string to the vector's signature.
      expect(signing.sign(message, { input: 'utf8' })).toBe(c.headers.Signature);
      const verifier = new Signing();
      verifier.importPublicKey(vectors.public_key_pem);
      expect(verifier.verify(message, c.headers.Signature!)).toBe(true);
      expect(verifier.verify(`${message}x`, c.headers.Signature!)).toBe(false);
    });
  }

  it('verifies a signature the kit makes over a fresh signing string', async () => {
    const der = base64UrlDecode(priorArtSigning().exportPrivateKeyInBase64Url());
    if (der === undefined) throw new Error('the prior art exported no key');
    const seed = der.slice(-32);
    const message = webhookMessage({
      method: 'POST',
      url: 'https://market.example.com/v1/webhook',
      eventId: 'evt_interop',
      timestamp: '2026-11-21T10:00:00Z',
      bodyDigest: await webhookBodyDigest(
        '{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":"1","order_status":"PAID"}',
      ),
    });
    const signature = base64UrlEncode(await ed25519Sign(seed, utf8(message)));
    const verifier = new Signing();
    verifier.importPublicKey(vectors.public_key_pem);
    expect(verifier.verify(message, signature)).toBe(true);
  });
});
