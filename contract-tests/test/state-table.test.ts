/** The state table certify delivers is core's, whole: the arrows an enum-order table gets wrong are in it. */
import { ORDER_STATUSES } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { readinessCases } from '../src/checks/webhook-readiness-order.js';
import { stateTableCases } from '../src/checks/webhook-state-table.js';

describe('webhook.state-table cases', () => {
  it('holds every ordered pair in basic mode, and the forward ones in two other cases', () => {
    const cases = stateTableCases('basic');
    const canonical = cases.filter((c) => (ORDER_STATUSES as readonly string[]).includes(c.sent));
    // Every pair once in its canonical case.
    expect(canonical).toHaveLength(ORDER_STATUSES.length ** 2);
    const find = (from: string, sent: string) => cases.find((c) => c.from === from && c.sent === sent);
    // What a table built on the enum's order applies: each must be ignored.
    expect(find('DISBURSING', 'CANCELING')).toMatchObject({ expected: 'DISBURSING', applied: false });
    expect(find('PAID', 'CANCELED')).toMatchObject({ expected: 'PAID', applied: false });
    expect(find('APPROVED', 'APPROVED')).toMatchObject({ expected: 'APPROVED', applied: false });
    expect(find('PENDING', 'paid')).toMatchObject({ expected: 'PAID', applied: true, rule: 'R-SVC-13' });
    expect(find('APPROVED', 'Canceling')).toMatchObject({ expected: 'CANCELING', applied: true });
    // ASCII folding only: a dotless ı is no i.
    expect(find('PENDING', 'pa\u0131d')).toMatchObject({ expected: 'PENDING', applied: false });
    // Nor does anything else: spaces, full-width letters (NFKC), an invisible character.
    for (const sent of [
      ' APPROVED',
      'CANCELED ',
      'APPROVED\n',
      '\uFF21\uFF30\uFF30\uFF32\uFF2F\uFF36\uFF25\uFF24',
      'PAID\u200B',
    ])
      expect(find('PENDING', sent)).toMatchObject({ expected: 'PENDING', applied: false, rule: 'R-SVC-13' });
  });

  it('leaves readiness out in data-sharing mode (the service refuses to pay an order it holds PENDING)', () => {
    const cases = stateTableCases('data-sharing');
    expect(cases.some((c) => c.from === 'DISBURSING' || c.sent.toUpperCase() === 'DISBURSING')).toBe(false);
    expect(cases.find((c) => c.from === 'PAID' && c.sent === 'CANCELED')).toMatchObject({ applied: false });
  });
});

describe('readiness in every order (webhook.readiness-every-order, R-STATE-08)', () => {
  it('derives, from core, each readiness that does not count, and the approval after one that came while PENDING', () => {
    const cases = readinessCases().map(
      (c) => `${c.form} while ${c.from}${c.followedBy ? ` then ${c.followedBy}` : ''} → ${c.expected}`,
    );
    expect(cases.sort()).toEqual(
      [
        'requirement while PENDING → PENDING',
        'requirement while PENDING then APPROVED → APPROVED',
        'requirement while CANCELING → CANCELING',
        'requirement while CANCELED → CANCELED',
        'requirement while PAID → PAID',
        // A DISBURSING update to a PENDING order is a forward move, so readiness: not a case here.
        'status while CANCELING → CANCELING',
        'status while CANCELED → CANCELED',
        'status while PAID → PAID',
      ].sort(),
    );
  });
});
