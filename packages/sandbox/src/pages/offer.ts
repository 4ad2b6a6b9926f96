/** What the pages show of an organisation's offer (offers are loose objects, kept as the market gave them). */
import type { Organization } from '../organizations.js';

export interface OfferSummary {
  code: string;
  name: string;
  providerName: string;
  instalmentCount: number;
}

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : fallback;

export function offerSummary(organization: Organization): OfferSummary | undefined {
  const offer = organization.approvedOffers[0];
  if (!offer) return undefined;
  const provider = offer.provider as Record<string, unknown> | undefined;
  return {
    code: text(offer.code, 'offer'),
    name: text(offer.name, 'Pay later in 3 monthly instalments'),
    providerName: text(
      typeof provider === 'object' && provider ? provider.name : undefined,
      'Sandbox BNPL provider',
    ),
    instalmentCount: 3,
  };
}

/** Outcome the SDK is told about for an order that was already decided when the page opened. */
export function outcomeOf(status: string): { status: 'approved' | 'rejected'; paid: boolean } | undefined {
  if (status === 'APPROVED' || status === 'DISBURSING' || status === 'PAID') {
    return { status: 'approved', paid: true };
  }
  if (status === 'CANCELING' || status === 'CANCELED') return { status: 'rejected', paid: false };
  return undefined;
}
