/**
 * The sandbox's demo data: two users with a profile and a custom `loyalty` scope, and the offers the
 * embedded sandbox approves. An has 1200 loyalty points and meets the gold offer's condition
 * (points >= 1000); Bình has 300 and misses it, so the offer filter visibly ranks them apart.
 */
import type { BasicProfile, BasicProfileKey, CustomScopeData } from '@bnpl-kit/core';

export interface DemoUser {
  id: string;
  profile: BasicProfile;
  customClaims: CustomScopeData;
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: 'user-an',
    profile: {
      phone: '+84901234567',
      name: { given: 'An', family: 'Nguyễn Văn' },
      email: 'an@example.com',
      address: '12 Lý Thường Kiệt, Hoàn Kiếm, Hà Nội',
    },
    customClaims: { loyalty: { tier: 'gold', points: 1200 } },
  },
  {
    id: 'user-binh',
    profile: {
      phone: '+84907654321',
      name: { given: 'Bình', family: 'Trần Thị' },
      email: 'binh@example.com',
      address: '45 Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh',
    },
    customClaims: { loyalty: { tier: 'silver', points: 300 } },
  },
];

/** What the sandbox "dashboard" lists as provided basic profile keys when APP_PROVIDING_BASIC_PROFILE is unset. */
export const DEFAULT_PROVIDING_BASIC_PROFILE: readonly BasicProfileKey[] = ['phone', 'name', 'email'];

export const GOLD_POINTS = 1000;

/** The approved offers: one for everybody, one for loyalty members with enough points. */
export function demoOffers(organizationId: string): Record<string, unknown>[] {
  const provider = { id: 'sandbox-provider', name: 'Sandbox BNPL provider' };
  return [
    {
      code: 'sandbox-pay-in-3',
      name: 'Pay later in 3 monthly instalments',
      provider,
      product_type: 'consumerBNPL',
      conditions: [],
      required_custom_scopes: [],
    },
    {
      code: 'loyalty-gold-pay-in-6',
      name: `Pay later in 6 monthly instalments (loyalty points >= ${GOLD_POINTS})`,
      provider,
      product_type: 'consumerBNPL',
      conditions: [
        {
          kind: 'LARGER_THAN_OR_EQUAL_CONDITION',
          claim: `${organizationId}:points`,
          scope: `${organizationId}:loyalty`,
          value: GOLD_POINTS,
        },
      ],
      required_custom_scopes: [[`${organizationId}:loyalty`]],
    },
  ];
}
