import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildClaimObject } from '../src/claims/builder.js';
import { scopeHash } from '../src/claims/canonical.js';
import { buildClaimTokens, signClaimToken, verifyClaimToken } from '../src/claims/token.js';
import { seedToPkcs8Der } from '../src/signature/keys.js';
import { kitErrorOf } from '../src/testing.js';

const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/webhook-and-claims.json', import.meta.url), 'utf8'),
) as {
  public_key: string;
  public_key_pem: string;
  signing_key_pkcs8_pem: string;
};

const ORG = '3b36d4f6-610e-4a16-924a-0a6766203439';
const CREDIFY_ID = 'ba3d1f1a-57eb-4fc2-a6aa-dfaf4a359512';
const HASH = 'wvkqfZ54B4t28YfR631aFLuDc-wdBbjmt3XiGYO0YnE';
const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff);
const otherSeed = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 5) & 0xff);

function publicKeyOf(s: Uint8Array) {
  const privateKey = createPrivateKey({ key: Buffer.from(seedToPkcs8Der(s)), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const x = publicKey.export({ format: 'jwk' }).x as string;
  return {
    keyObject: publicKey,
    base64url: x,
    pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
  };
}
const pub = publicKeyOf(seed);

const input = { organizationId: ORG, credifyId: CREDIFY_ID, scopeName: `${ORG}:loyalty`, scopeHash: HASH };

const rejection = (promise: Promise<unknown>) => kitErrorOf(promise);

function tamperPayload(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...change };
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

describe('signClaimToken', () => {
  it('writes the exact header and payload of WIRE §7 and verifies with jose', async () => {
    const token = await signClaimToken({ ...input, signingKey: seed, iat: 1_800_000_000 });
    const [header, payload] = token.split('.') as [string, string];
    expect(Buffer.from(header, 'base64url').toString('utf8')).toBe('{"alg":"EdDSA","typ":"JWT"}');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toEqual({
      iat: 1_800_000_000,
      iss: ORG,
      user_id: CREDIFY_ID,
      scope_name: `${ORG}:loyalty`,
      scope_hash: HASH,
    });
    const verified = await jwtVerify(token, pub.keyObject, { algorithms: ['EdDSA'], issuer: ORG });
    expect(verified.payload.scope_hash).toBe(HASH);
  });

  it('defaults iat to now, in seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await signClaimToken({ ...input, signingKey: seed });
    const after = Math.floor(Date.now() / 1000);
    const { iat } = decodeJwt(token);
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(after);
  });

  it('is deterministic for the same input (Ed25519)', async () => {
    const a = await signClaimToken({ ...input, signingKey: seed, iat: 1 });
    const b = await signClaimToken({ ...input, signingKey: seed, iat: 1 });
    expect(a).toBe(b);
  });

  it('signs with the vectors PKCS#8 PEM, with and without BEGIN/END lines, verifiable with their public key', async () => {
    const body = vectors.signing_key_pkcs8_pem
      .split('\n')
      .filter((line) => line && !line.startsWith('-----'))
      .join('');
    for (const signingKey of [vectors.signing_key_pkcs8_pem, body]) {
      const token = await signClaimToken({ ...input, signingKey, iat: 1_800_000_000 });
      await expect(
        verifyClaimToken(token, vectors.public_key, { organizationId: ORG }),
      ).resolves.toMatchObject({
        iss: ORG,
      });
      await expect(verifyClaimToken(token, vectors.public_key_pem)).resolves.toMatchObject({
        scope_hash: HASH,
      });
    }
  });

  it('rejects bad input with validation errors naming the field', async () => {
    const error = await rejection(
      signClaimToken({ ...input, credifyId: '', scopeHash: 'short', signingKey: seed }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.errors?.map((e) => e.path).sort()).toEqual(['credifyId', 'scopeHash']);
  });

  it('rejects an unusable signing key as misconfiguration', async () => {
    const error = await rejection(signClaimToken({ ...input, signingKey: 'not a key' }));
    expect(error.code).toBe('misconfigured');
  });
});

describe('verifyClaimToken', () => {
  it('accepts the raw, base64url and PEM forms of the public key and checks expected values', async () => {
    const token = await signClaimToken({ ...input, signingKey: seed, iat: 1_800_000_000 });
    const raw = Uint8Array.from(Buffer.from(pub.base64url, 'base64url'));
    for (const key of [pub.base64url, pub.pem, raw]) {
      const payload = await verifyClaimToken(token, key, {
        organizationId: ORG,
        credifyId: CREDIFY_ID,
        scopeName: `${ORG}:loyalty`,
        scopeHash: HASH,
      });
      expect(payload).toEqual({
        iat: 1_800_000_000,
        ...{ iss: ORG, user_id: CREDIFY_ID },
        scope_name: `${ORG}:loyalty`,
        scope_hash: HASH,
      });
    }
  });

  it('fails a tampered payload', async () => {
    const token = await signClaimToken({ ...input, signingKey: seed });
    const error = await rejection(
      verifyClaimToken(tamperPayload(token, { scope_hash: 'A'.repeat(43) }), pub.base64url),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.extensions?.reason).toBe('signature');
  });

  it('fails a tampered signature', async () => {
    const token = await signClaimToken({ ...input, signingKey: seed });
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const forged = `${token.slice(0, -2)}${last}${token.at(-1)}`;
    const error = await rejection(verifyClaimToken(forged, pub.base64url));
    expect(error.extensions?.reason).toBe('signature');
  });

  it('fails a token signed by another key', async () => {
    const token = await signClaimToken({ ...input, signingKey: otherSeed });
    const error = await rejection(verifyClaimToken(token, pub.base64url));
    expect(error.extensions?.reason).toBe('signature');
  });

  it('fails a wrong issuer, user, scope name or scope hash', async () => {
    const token = await signClaimToken({ ...input, signingKey: seed });
    const cases = [
      [{ organizationId: 'another-org' }, 'issuer'],
      [{ credifyId: 'someone-else' }, 'user_id'],
      [{ scopeName: 'phone' }, 'scope_name'],
      [{ scopeHash: 'B'.repeat(43) }, 'scope_hash'],
    ] as const;
    for (const [options, reason] of cases) {
      const error = await rejection(verifyClaimToken(token, pub.base64url, options));
      expect(error.extensions?.reason).toBe(reason);
      expect(error.toProblem().status).toBe(400);
    }
  });

  it('fails a validly signed token whose segments keep their base64 padding or use the standard alphabet (RFC 7515)', async () => {
    // Ed25519 is deterministic: pick the first iat whose signature has a `-` or `_`, so that its
    // standard-alphabet form differs from it (about 1 signature in 15 has neither, and its
    // "standard" form would be the valid token itself).
    let token = '';
    for (let iat = 1_800_000_000; !/[-_]/.test(token.split('.')[2] ?? ''); iat++)
      token = await signClaimToken({ ...input, signingKey: seed, iat });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const padded = `${header}.${payload}.${signature}==`;
    const standard = `${header}.${payload}.${Buffer.from(signature, 'base64url').toString('base64').replace(/=+$/, '')}`;
    expect(standard).not.toBe(token);
    for (const variant of [padded, standard]) {
      const error = await rejection(verifyClaimToken(variant, pub.base64url));
      expect(error.extensions?.reason).toBe('malformed');
    }
  });

  it('fails a token that is not a JWT', async () => {
    for (const token of ['', 'abc', 'a.b.c', 'a.b']) {
      const error = await rejection(verifyClaimToken(token, pub.base64url));
      expect(error.code).toBe('validation_failed');
      expect(error.extensions?.reason).toBe('malformed');
    }
  });

  it('fails a validly signed token whose payload lacks a claim', async () => {
    const privateKey = createPrivateKey({
      key: Buffer.from(seedToPkcs8Der(seed)),
      format: 'der',
      type: 'pkcs8',
    });
    const token = await new SignJWT({ iss: ORG, user_id: CREDIFY_ID, scope_name: 'phone' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setIssuedAt()
      .sign(privateKey);
    const error = await rejection(verifyClaimToken(token, pub.base64url));
    expect(error.extensions?.reason).toBe('payload');
    expect(error.message).toContain('scope_hash');
  });

  it('fails a token whose header is not EdDSA JWT', async () => {
    const token = await signClaimToken({ ...input, signingKey: seed });
    const [, payload, signature] = token.split('.') as [string, string, string];
    for (const header of [
      { alg: 'none', typ: 'JWT' },
      { alg: 'EdDSA', typ: 'at+jwt' },
      { alg: 'HS256', typ: 'JWT' },
    ]) {
      const forged = [Buffer.from(JSON.stringify(header)).toString('base64url'), payload, signature].join(
        '.',
      );
      const error = await rejection(verifyClaimToken(forged, pub.base64url));
      expect(error.extensions?.reason).toBe('header');
    }
  });
});

describe('buildClaimTokens', () => {
  it('signs one token per scope over that scope hash and returns its commitment', async () => {
    const claims = buildClaimObject({
      organizationId: ORG,
      profile: { phone: '+84901234567', email: 'an@example.com' },
      providingBasicProfile: ['phone', 'email'],
      customScopes: { loyalty: { tier: 'gold' } },
      withCommitments: true,
    });
    const entries = await buildClaimTokens({
      claims,
      organizationId: ORG,
      credifyId: CREDIFY_ID,
      signingKey: seed,
    });
    expect(entries.map((e) => e.scopeName).sort()).toEqual([`${ORG}:loyalty`, 'email', 'phone']);
    for (const entry of entries) {
      const scopeClaims = claims[entry.scopeName]!;
      expect(entry.scopeHash).toBe(await scopeHash(scopeClaims));
      expect(entry.commitment).toBeDefined();
      expect(Object.values(scopeClaims)).toContain(entry.commitment);
      const payload = await verifyClaimToken(entry.token, pub.base64url, {
        organizationId: ORG,
        credifyId: CREDIFY_ID,
        scopeName: entry.scopeName,
        scopeHash: entry.scopeHash,
      });
      expect(decodeProtectedHeader(entry.token)).toEqual({ alg: 'EdDSA', typ: 'JWT' });
      expect(payload.scope_name).toBe(entry.scopeName);
    }
    expect(new Set(entries.map((e) => e.scopeHash)).size).toBe(3);
  });

  it('reports no commitment for scopes built without one, and nothing for an empty claim object', async () => {
    const claims = buildClaimObject({ organizationId: ORG, customScopes: { loyalty: { tier: 'gold' } } });
    const [entry] = await buildClaimTokens({
      claims,
      organizationId: ORG,
      credifyId: CREDIFY_ID,
      signingKey: seed,
    });
    expect(entry?.commitment).toBeUndefined();
    await expect(
      buildClaimTokens({ claims: {}, organizationId: ORG, credifyId: CREDIFY_ID, signingKey: seed }),
    ).resolves.toEqual([]);
  });
});
