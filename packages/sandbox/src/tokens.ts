/**
 * Access tokens: opaque random strings with an expiry, issued for an API key (`POST /v1/token`) or
 * by the sandbox itself to call a market's offer filtering endpoint. Expired tokens are refused, so
 * a client that does not refresh is caught by the tests.
 */
import { bearerToken } from '@bnpl-kit/core';
import { API_KEY_HEADER, base64UrlEncode, CLAIM_PROVIDER_PERMISSION } from '@bnpl-kit/core/wire';
import type { Clock } from './clock.js';
import { ServiceFailure } from './http.js';
import type { Organization } from './organizations.js';
import type { AccessTokenRecord, SandboxState } from './state.js';

export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

export class TokenIssuer {
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  issue(organizationId: string, scopes: string[], purpose: AccessTokenRecord['purpose']): AccessTokenRecord {
    this.#sweep();
    const record: AccessTokenRecord = {
      value: `at_${base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)))}`,
      organizationId,
      scopes,
      expiresAt: this.clock.now() + this.ttlSeconds * 1000,
      purpose,
    };
    this.state.tokens.set(record.value, record);
    return record;
  }

  /** `POST /v1/token`: the `X-API-KEY` must be known (401) and carry `claim_provider` (403). */
  exchangeApiKey(request: Request): { accessToken: string; expiresIn: number } {
    const key = request.headers.get(API_KEY_HEADER);
    if (!key) throw new ServiceFailure(401, 'UNAUTHENTICATED', `The ${API_KEY_HEADER} header is required`);
    const found = this.state.organizationByApiKey(key);
    if (!found) throw new ServiceFailure(401, 'UNAUTHENTICATED', 'Unknown API key');
    if (!found.permissions.includes(CLAIM_PROVIDER_PERMISSION)) {
      throw new ServiceFailure(
        403,
        'FORBIDDEN',
        `This API key lacks the ${CLAIM_PROVIDER_PERMISSION} permission; grant it in the dashboard`,
      );
    }
    const token = this.issue(found.organization.id, [CLAIM_PROVIDER_PERMISSION], 'api');
    return { accessToken: token.value, expiresIn: this.ttlSeconds };
  }

  /** The organisation behind `Authorization: Bearer <token>` of an API call. */
  authenticate(request: Request): Organization {
    const token = bearerToken(request);
    if (token === undefined)
      throw new ServiceFailure(401, 'UNAUTHENTICATED', 'A bearer access token is required');
    const record = this.active(token);
    if (record?.purpose !== 'api') {
      throw new ServiceFailure(401, 'UNAUTHENTICATED', 'The access token is unknown or expired');
    }
    const organization = this.state.organizations.get(record.organizationId);
    if (!organization) throw new ServiceFailure(401, 'UNAUTHENTICATED', 'The organisation no longer exists');
    return organization;
  }

  /** Revokes every API access token of the organisation, as a service rotating its secrets does: the next call is a 401. */
  revokeApiTokens(organizationId: string): number {
    let revoked = 0;
    for (const [value, record] of this.state.tokens)
      if (record.organizationId === organizationId && record.purpose === 'api') {
        this.state.tokens.delete(value);
        revoked++;
      }
    return revoked;
  }

  active(value: string): AccessTokenRecord | undefined {
    const record = this.state.tokens.get(value);
    return record && record.expiresAt > this.clock.now() ? record : undefined;
  }

  /** Drops expired tokens so a long-running sandbox does not grow without bound. */
  #sweep(): void {
    const now = this.clock.now();
    for (const [value, record] of this.state.tokens)
      if (record.expiresAt <= now) this.state.tokens.delete(value);
  }
}
