/**
 * `waitFor` for the reference servers' tests: core's `pollUntil`, where `null` and `false` also
 * mean "not yet" and the deadline defaults to 200 s, the listen deadline of child-server.ts: a
 * "hung" guard only (CI runs every suite at once on two cores, where the koa walkthrough gave
 * up after 30 s waiting for its webhooks to be answered). Never a fixed sleep.
 */
import { pollUntil } from '@bnpl-kit/core/testing';

export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  return pollUntil(
    async () => {
      const value = await probe();
      return value === null || value === false ? undefined : value;
    },
    { what: options.what, timeoutMs: options.timeoutMs ?? 200_000, intervalMs: options.intervalMs ?? 25 },
  );
}
