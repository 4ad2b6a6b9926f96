/**
 * Naming rules of WIRE §7. Custom names are `<org>:<key>`; the standard scopes keep their bare
 * OpenID names and an underscore commitment key, as the prior-art service expects.
 */
import { STANDARD_SCOPES, type StandardScope } from './types.js';

export function isStandardScope(scopeName: string): scopeName is StandardScope {
  return (STANDARD_SCOPES as readonly string[]).includes(scopeName);
}

/** Qualifies a key with the organisation; a key that is already qualified is left alone. */
function qualifyKey(organizationId: string, key: string): string {
  return key.startsWith(`${organizationId}:`) ? key : `${organizationId}:${key}`;
}

export function customScopeName(organizationId: string, scopeKey: string): string {
  return qualifyKey(organizationId, scopeKey);
}

export function customClaimKey(organizationId: string, claimKey: string): string {
  return qualifyKey(organizationId, claimKey);
}

/** `phone` → `phone_commitment`; `<org>:loyalty` → `<org>:loyalty:commitment`. */
export function commitmentKeyFor(scopeName: string): string {
  return isStandardScope(scopeName) ? `${scopeName}_commitment` : `${scopeName}:commitment`;
}

/**
 * A scope filter names scopes either fully (`<org>:loyalty`, `profile`) or by bare key (`loyalty`);
 * `name` is accepted for `profile` because that is the basic profile key a market configures.
 * Empty or missing means every scope.
 */
export function scopeFilter(scopes: readonly string[] | undefined): (scopeName: string) => boolean {
  if (scopes === undefined || scopes.length === 0) return () => true;
  const wanted = new Set(scopes.map((s) => s.trim()).filter((s) => s.length > 0));
  if (wanted.size === 0) return () => true;
  if (wanted.has('name')) wanted.add('profile');
  return (scopeName) => {
    if (wanted.has(scopeName)) return true;
    const colon = scopeName.indexOf(':');
    return colon >= 0 && wanted.has(scopeName.slice(colon + 1));
  };
}
