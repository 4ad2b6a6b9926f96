/**
 * Credentials next to the right one. A market that compares a token by prefix (`strncmp` with the
 * length of what was sent, `startswith`), without case (a case-insensitive column or collation),
 * or only in part takes some of these for the real one; R-EP-21 ("valid credentials") refuses
 * every one of them.
 */

/** Each value next to `token`, with what it is (values equal to `token` left out). */
export function tokenNearMisses(token: string): [string, string][] {
  const last = token.at(-1) ?? '';
  const swapped = token === token.toLowerCase() ? token.toUpperCase() : token.toLowerCase();
  const cases: [string, string][] = [
    ['with its last character changed', `${token.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`],
    ['without its last character', token.slice(0, -1)],
    ['with a character appended', `${token}x`],
    ['in the other letter case', swapped],
    ['its first half', token.slice(0, Math.ceil(token.length / 2))],
    ['empty', ''],
  ];
  const seen = new Set<string>([token]);
  return cases.filter(([, value]) => !seen.has(value) && seen.add(value));
}

/**
 * The near misses of a credential header's value: of the token after an authentication scheme
 * (`Bearer <token>`), the scheme kept, or of the whole value when it has none.
 */
export function headerValueNearMisses(value: string): [string, string][] {
  const scheme = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S.*)$/.exec(value);
  if (!scheme) return tokenNearMisses(value).map(([what, near]) => [`the value ${what}`, near]);
  const [, name, token] = scheme as unknown as [string, string, string];
  return tokenNearMisses(token).map(([what, near]) => [
    `the token ${what}`,
    near === '' ? name : `${name} ${near}`,
  ]);
}
