import { INTEGRATION_MODES } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { checksFor, modeSmokeChecks, ORDER_THROUGH_WEBHOOKS_CHECKS, RESTART_CHECK } from '../src/index.js';

describe('modeSmokeChecks', () => {
  it.each(INTEGRATION_MODES)('names only checks of %s, the order through its webhooks first', (mode) => {
    const smoke = modeSmokeChecks(mode);
    const ids = new Set(checksFor(mode).map((check) => check.id));
    expect(smoke.filter((id) => !ids.has(id))).toEqual([]);
    expect(smoke.slice(0, ORDER_THROUGH_WEBHOOKS_CHECKS.length)).toEqual([...ORDER_THROUGH_WEBHOOKS_CHECKS]);
    expect(new Set(smoke).size).toBe(smoke.length);
  });

  it("adds every check only basic has (a basic market refuses data-sharing's endpoints), and no shared one", () => {
    const basic = modeSmokeChecks('basic');
    expect(basic).toContain('routes.basic-serves-no-data-sharing');
    const dataSharing = new Set(checksFor('data-sharing').map((check) => check.id));
    expect(basic.slice(ORDER_THROUGH_WEBHOOKS_CHECKS.length).filter((id) => dataSharing.has(id))).toEqual([]);
  });

  it('adds every check only data-sharing has (claims, offer filtering) to its data-sharing set', () => {
    const basic = new Set(checksFor('basic').map((check) => check.id));
    const onlyDataSharing = checksFor('data-sharing')
      .map((check) => check.id)
      .filter((id) => !basic.has(id));
    expect(onlyDataSharing.length).toBeGreaterThan(0);
    expect(modeSmokeChecks('data-sharing').slice(ORDER_THROUGH_WEBHOOKS_CHECKS.length)).toEqual(
      onlyDataSharing,
    );
  });

  it.each(INTEGRATION_MODES)(
    'with restart: %s, adds the restart check (a check of that mode) last, once',
    (mode) => {
      expect(checksFor(mode).map((check) => check.id)).toContain(RESTART_CHECK);
      expect(modeSmokeChecks(mode)).not.toContain(RESTART_CHECK);
      expect(modeSmokeChecks(mode, { restart: true })).toEqual([...modeSmokeChecks(mode), RESTART_CHECK]);
      expect(modeSmokeChecks(mode, { restart: false })).toEqual(modeSmokeChecks(mode));
    },
  );
});
