/** What the pages show of an organisation's offers (offers are loose objects, kept as the market gave them). */
import { type Organization, offersWithoutClaims } from '../organizations.js';
import { scopeLabel } from './scope-labels.js';

export interface OfferSummary {
  code: string;
  name: string;
  providerName: string;
  instalmentCount: number;
  /** Labels of the custom scopes the offer needs: the data the market shared unlocked it. */
  unlockedBy: string[];
}

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : fallback;

/** `instalments` when the offer says so, else "in 6 monthly instalments" in its name, else 3. */
function instalmentCount(offer: Record<string, unknown>): number {
  const given = offer.instalments;
  if (typeof given === 'number' && Number.isInteger(given) && given >= 1 && given <= 24) return given;
  const named = /\bin (\d{1,2}) (?:monthly )?instalments\b/i.exec(text(offer.name, ''));
  const count = named ? Number(named[1]) : 3;
  return count >= 1 && count <= 24 ? count : 3;
}

function requiredScopes(offer: Record<string, unknown>): string[] {
  const levels = Array.isArray(offer.required_custom_scopes) ? offer.required_custom_scopes : [];
  const names = levels
    .flatMap((level) => (Array.isArray(level) ? level : []))
    .filter((s) => typeof s === 'string');
  return [...new Set(names as string[])];
}

export function summarizeOffer(offer: Record<string, unknown>): OfferSummary {
  const provider = offer.provider as Record<string, unknown> | undefined;
  return {
    code: text(offer.code, 'offer'),
    name: text(offer.name, 'Pay later in 3 monthly instalments'),
    providerName: text(
      typeof provider === 'object' && provider ? provider.name : undefined,
      'Sandbox BNPL provider',
    ),
    instalmentCount: instalmentCount(offer),
    unlockedBy: requiredScopes(offer).map(scopeLabel),
  };
}

/** The first offer this organisation may give anyone: without offer filtering, one that needs no claims. */
export function offerSummary(organization: Organization): OfferSummary | undefined {
  const offer = organization.offerFilteringUrl
    ? organization.approvedOffers[0]
    : offersWithoutClaims(organization)[0];
  return offer ? summarizeOffer(offer) : undefined;
}

/**
 * The offers this user may choose from: those availability last answered for them (in data-sharing
 * mode, as the market's offer filtering ranked them, so a loyalty member sees one more), else the
 * organisation's first approved offer.
 */
export function offersFor(
  organization: Organization,
  ranked: Record<string, unknown>[] | undefined,
): OfferSummary[] {
  // Without offer filtering no claims were evaluated: an offer that needs them is never shown.
  const approved = new Set(
    (organization.offerFilteringUrl ? organization.approvedOffers : offersWithoutClaims(organization)).map(
      (o) => o.code,
    ),
  );
  const usable = (ranked ?? []).filter((o) => approved.has(o.code));
  if (usable.length > 0) return usable.slice(0, 5).map(summarizeOffer);
  const first = offerSummary(organization);
  return first ? [first] : [];
}

/** Outcome the SDK is told about for an order that was already decided when the page opened. */
export function outcomeOf(status: string): { status: 'approved' | 'rejected'; paid: boolean } | undefined {
  if (status === 'APPROVED' || status === 'DISBURSING' || status === 'PAID') {
    return { status: 'approved', paid: true };
  }
  if (status === 'CANCELING' || status === 'CANCELED') return { status: 'rejected', paid: false };
  return undefined;
}
