/**
 * When a running check is cut short. A check that keeps talking to the market is making progress,
 * however long it takes (a state table of 300 requests to a slow market, or on a loaded machine):
 * each request has its own timeout, so only a check that goes quiet can hang. The guard rejects once
 * the check has had no request in flight and sent or settled none for `idleLimitMs`, or when the
 * run's deadline passes, whichever comes first.
 */

/** What the guard reads of the check's HTTP record. */
export interface CheckActivity {
  /** 0 while a request is in flight, else the ms since one was last sent or settled. */
  idleMs(now?: number): number;
}

export interface StallGuard {
  /** Rejects with the reason the check was cut; never resolves. */
  readonly cut: Promise<never>;
  stop(): void;
}

export function guardAgainstStall(
  activity: CheckActivity,
  idleLimitMs: number,
  deadlineLeftMs: number,
): StallGuard {
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  const cut = new Promise<never>((_, reject) => {
    const watch = (waitMs: number) => {
      idleTimer = setTimeout(() => {
        const idle = activity.idleMs();
        if (idle >= idleLimitMs)
          reject(
            new Error(
              `the check made no progress for ${idleLimitMs} ms (no request to the market in flight, sent or answered)`,
            ),
          );
        // Active since the timer was set: look again when the quiet that began last could reach the limit.
        else watch(idleLimitMs - idle);
      }, waitMs);
    };
    watch(idleLimitMs);
    if (Number.isFinite(deadlineLeftMs))
      deadlineTimer = setTimeout(
        () =>
          reject(
            new Error(`the check did not finish within ${deadlineLeftMs} ms, when the run's deadline passed`),
          ),
        Math.max(1, deadlineLeftMs),
      );
  });
  // The loser of the race with the check is never awaited.
  cut.catch(() => {});
  return {
    cut,
    stop() {
      clearTimeout(idleTimer);
      clearTimeout(deadlineTimer);
    },
  };
}
