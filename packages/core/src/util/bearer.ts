/**
 * The one reading of `Authorization: Bearer <token>` (RFC 6750 §2.1) for every package of the kit:
 * the scheme case-insensitive, one or more spaces, one token of visible characters, trailing spaces
 * tolerated. Anything else (no scheme, another scheme, two tokens, tabs) is no bearer token.
 */
const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** The token of an `Authorization` header value, or undefined. */
export function parseBearerToken(authorization: string | null | undefined): string | undefined {
  if (authorization === null || authorization === undefined) return undefined;
  return BEARER.exec(authorization)?.[1];
}
