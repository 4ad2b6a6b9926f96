import { describe, expect, it } from 'vitest';
import { buildClaimObject } from '../src/claims/builder.js';
import { extractCommitments, generateCommitment } from '../src/claims/commitment.js';
import { commitmentKeyFor, scopeFilter } from '../src/claims/names.js';
import type { BuildClaimObjectInput } from '../src/claims/types.js';
import type { KitError } from '../src/errors.js';
import { kitErrorThrownBy } from '../src/testing.js';

const ORG = '3b36d4f6-610e-4a16-924a-0a6766203439';
const COMMITMENT = /^[A-Za-z0-9_-]{43}$/;

const base: BuildClaimObjectInput = {
  organizationId: ORG,
  profile: {
    phone: '+84901234567',
    name: { given: 'An', family: 'Nguyen' },
    email: 'an@example.com',
    address: '1 Le Loi, District 1, HCMC',
  },
  providingBasicProfile: ['phone', 'name', 'email', 'address'],
  customScopes: { loyalty: { tier: 'gold', points: 1200 } },
};

const validationError = (run: () => unknown): KitError => kitErrorThrownBy(run, 'validation_failed');

describe('buildClaimObject', () => {
  it('builds every standard scope and qualifies custom scopes and claims', () => {
    expect(buildClaimObject(base)).toEqual({
      phone: { phone_number: '+84901234567' },
      profile: { given_name: 'An', family_name: 'Nguyen' },
      email: { email: 'an@example.com' },
      address: { address: { formatted: '1 Le Loi, District 1, HCMC' } },
      [`${ORG}:loyalty`]: { [`${ORG}:tier`]: 'gold', [`${ORG}:points`]: 1200 },
    });
  });

  it('accepts the comma-separated environment form of APP_PROVIDING_BASIC_PROFILE', () => {
    const claims = buildClaimObject({ ...base, providingBasicProfile: ' Email , phone', customScopes: {} });
    expect(Object.keys(claims).sort()).toEqual(['email', 'phone']);
  });

  it('leaves out standard scopes the market does not provide', () => {
    const claims = buildClaimObject({ ...base, providingBasicProfile: ['email'] });
    expect(Object.keys(claims).sort()).toEqual([`${ORG}:loyalty`, 'email']);
  });

  it('leaves out a provided scope the user has no data for', () => {
    const claims = buildClaimObject({ ...base, profile: { email: 'a@b.c' } });
    expect(Object.keys(claims).sort()).toEqual([`${ORG}:loyalty`, 'email']);
  });

  it('joins a split phone number and keeps a full name whole', () => {
    const claims = buildClaimObject({
      organizationId: ORG,
      profile: {
        phone: { countryCode: '+84', number: '901234567' },
        name: { full: 'Nguyen Van An' },
        address: { formatted: 'Hanoi' },
      },
      providingBasicProfile: 'phone,name,address',
    });
    expect(claims).toEqual({
      phone: { phone_number: '+84901234567' },
      profile: { name: 'Nguyen Van An' },
      address: { address: { formatted: 'Hanoi' } },
    });
  });

  it('does not double-qualify keys that already carry the organisation ID', () => {
    const claims = buildClaimObject({
      organizationId: ORG,
      customScopes: { [`${ORG}:loyalty`]: { [`${ORG}:tier`]: 'gold' } },
    });
    expect(claims).toEqual({ [`${ORG}:loyalty`]: { [`${ORG}:tier`]: 'gold' } });
  });

  it('drops undefined claim values and scopes left empty', () => {
    const claims = buildClaimObject({
      organizationId: ORG,
      customScopes: { loyalty: { tier: undefined as unknown as string, points: 0 }, empty: {} },
    });
    expect(claims).toEqual({ [`${ORG}:loyalty`]: { [`${ORG}:points`]: 0 } });
  });

  describe('scope filter', () => {
    it.each([[undefined], [[]], [['', '  ']]])('includes every scope for %j', (scopes) => {
      expect(Object.keys(buildClaimObject({ ...base, scopes })).length).toBe(5);
    });

    it('keeps only the named scopes, by full name or bare key', () => {
      expect(Object.keys(buildClaimObject({ ...base, scopes: ['phone', 'loyalty'] })).sort()).toEqual([
        `${ORG}:loyalty`,
        'phone',
      ]);
      expect(
        Object.keys(buildClaimObject({ ...base, scopes: [`${ORG}:loyalty`, 'profile'] })).sort(),
      ).toEqual([`${ORG}:loyalty`, 'profile']);
    });

    it('treats the basic profile key "name" as the profile scope', () => {
      expect(Object.keys(buildClaimObject({ ...base, scopes: ['name'] }))).toEqual(['profile']);
    });

    it('ignores scopes the market does not have', () => {
      expect(buildClaimObject({ ...base, scopes: ['unknown'] })).toEqual({});
    });

    it('matches names on the standalone helper', () => {
      const only = scopeFilter(['loyalty']);
      expect(only(`${ORG}:loyalty`)).toBe(true);
      expect(only(`${ORG}:other`)).toBe(false);
      expect(only('phone')).toBe(false);
    });
  });

  describe('commitments', () => {
    it('has no commitment entries by default', () => {
      const claims = buildClaimObject(base);
      expect(extractCommitments(claims)).toEqual({});
    });

    it('generates one commitment per scope under the right key', () => {
      const claims = buildClaimObject({ ...base, withCommitments: true });
      expect(claims.phone?.phone_commitment).toMatch(COMMITMENT);
      expect(claims.profile?.profile_commitment).toMatch(COMMITMENT);
      expect(claims.email?.email_commitment).toMatch(COMMITMENT);
      expect(claims.address?.address_commitment).toMatch(COMMITMENT);
      expect(claims[`${ORG}:loyalty`]?.[`${ORG}:loyalty:commitment`]).toMatch(COMMITMENT);
      const commitments = extractCommitments(claims);
      expect(Object.keys(commitments).length).toBe(5);
      expect(new Set(Object.values(commitments)).size).toBe(5);
    });

    it('reuses stored commitments and generates only the missing ones when asked', () => {
      const stored = { phone: generateCommitment(), [`${ORG}:loyalty`]: generateCommitment() };
      const only = buildClaimObject({ ...base, commitments: stored });
      expect(extractCommitments(only)).toEqual(stored);

      const filled = buildClaimObject({ ...base, commitments: stored, withCommitments: true });
      const commitments = extractCommitments(filled);
      expect(commitments.phone).toBe(stored.phone);
      expect(commitments[`${ORG}:loyalty`]).toBe(stored[`${ORG}:loyalty`]);
      expect(commitments.email).toMatch(COMMITMENT);
      expect(Object.keys(commitments).length).toBe(5);
    });

    it('names commitment keys per WIRE §7', () => {
      expect(commitmentKeyFor('phone')).toBe('phone_commitment');
      expect(commitmentKeyFor('profile')).toBe('profile_commitment');
      expect(commitmentKeyFor(`${ORG}:loyalty`)).toBe(`${ORG}:loyalty:commitment`);
    });

    it('generates 43-character base64url commitments of 32 bytes', () => {
      const commitment = generateCommitment();
      expect(commitment).toMatch(COMMITMENT);
      expect(Buffer.from(commitment, 'base64url').length).toBe(32);
      expect(generateCommitment()).not.toBe(commitment);
    });
  });

  describe('validation', () => {
    it('requires the organisation ID', () => {
      const error = validationError(() => buildClaimObject({ ...base, organizationId: '  ' }));
      expect(error.errors).toContainEqual({
        path: 'organizationId',
        message: 'the organisation ID (APP_ID) is required',
      });
      const missing = validationError(() =>
        buildClaimObject({ ...base, organizationId: undefined as unknown as string }),
      );
      expect(missing.errors?.[0]?.path).toBe('organizationId');
    });

    it('rejects a basic profile key outside phone, name, email, address', () => {
      const error = validationError(() =>
        buildClaimObject({ ...base, providingBasicProfile: ['phone', 'dob'] }),
      );
      expect(error.errors).toHaveLength(1);
      expect(error.errors?.[0]?.path).toBe('providingBasicProfile[1]');
      expect(error.errors?.[0]?.message).toContain('"dob" is not a basic profile key');
    });

    it('reports every problem at once with paths', () => {
      const error = validationError(() =>
        buildClaimObject({
          organizationId: 'org:1',
          providingBasicProfile: 'phone,gender',
          profile: { email: '', name: {} },
          customScopes: { loyalty: { tier: Number.NaN } },
        }),
      );
      const paths = (error.errors ?? []).map((e) => e.path).sort();
      expect(paths).toEqual([
        'customScopes.loyalty.tier',
        'organizationId',
        'profile.email',
        'profile.name',
        'providingBasicProfile[1]',
      ]);
      expect(error.toProblem().status).toBe(400);
    });
  });
});
