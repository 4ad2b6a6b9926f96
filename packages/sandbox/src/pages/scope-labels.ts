/**
 * Scope names as people read them. On the wire a custom scope is `<organization_id>:<scope_key>`
 * (WIRE §7), e.g. `org-3f9c…:loyalty`; a shopper should read "Loyalty membership", not an ID.
 */

const STANDARD: Record<string, string> = {
  phone: 'Phone number',
  profile: 'Name',
  email: 'Email address',
  address: 'Address',
};

/** A few custom scope keys worded better than their key; anything else is its key in words. */
const CUSTOM: Record<string, string> = {
  loyalty: 'Loyalty membership',
};

export function scopeLabel(scopeName: string): string {
  // Own keys only: every object literal also holds constructor, toString and __proto__.
  const standard = Object.hasOwn(STANDARD, scopeName) ? STANDARD[scopeName] : undefined;
  if (standard) return standard;
  const key = scopeName.includes(':') ? scopeName.slice(scopeName.lastIndexOf(':') + 1) : scopeName;
  const custom = Object.hasOwn(CUSTOM, key) ? CUSTOM[key] : undefined;
  if (custom) return custom;
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words === '' ? scopeName : words.charAt(0).toUpperCase() + words.slice(1);
}
