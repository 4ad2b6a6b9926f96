/**
 * Time, injectable. Everything in the sandbox that waits (token expiry, webhook retries and their
 * 10 s attempt timeout, the "auto" scenario, delayed deliveries, a hanging route) goes through a
 * `Clock`, so a test can jump hours of retry schedule in microseconds with `createManualClock`.
 */

export type TimerHandle = unknown;

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. Timers are unref'd where the runtime allows: a pending 6 h retry keeps no process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms) as unknown as { unref?: () => void };
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export interface ManualClock extends Clock {
  readonly manual: true;
  /**
   * Moves time forward by `ms`, firing due timers in time order. `settle` runs before looking for
   * the next timer, so work started by one timer (which may schedule another) finishes first.
   */
  advance(ms: number, settle?: () => Promise<void>): Promise<void>;
  /** Timers not yet fired. */
  pendingTimers(): number;
}

interface ManualTimer {
  id: number;
  due: number;
  callback: () => void;
}

export function createManualClock(start: number | Date = Date.UTC(2030, 0, 1)): ManualClock {
  let current = typeof start === 'number' ? start : start.getTime();
  let nextId = 1;
  const timers = new Map<number, ManualTimer>();

  function nextDue(limit: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const timer of timers.values()) {
      if (timer.due > limit) continue;
      if (!best || timer.due < best.due || (timer.due === best.due && timer.id < best.id)) best = timer;
    }
    return best;
  }

  return {
    manual: true,
    now: () => current,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { id, due: current + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    async advance(ms, settle) {
      const target = current + ms;
      for (;;) {
        await settle?.();
        const timer = nextDue(target);
        if (!timer) break;
        timers.delete(timer.id);
        current = timer.due;
        timer.callback();
      }
      current = target;
      await settle?.();
    },
    pendingTimers: () => timers.size,
  };
}

export function isManualClock(clock: Clock): clock is ManualClock {
  return (clock as Partial<ManualClock>).manual === true;
}
