/**
 * The sandbox's own timers (auto scenario, CANCELING → CANCELED) and held answers (injected
 * timeouts), on its clock, so `close()` can stop every one of them.
 */
import type { Clock, TimerHandle } from './clock.js';

export class SandboxTimers {
  readonly #clock: Clock;
  readonly #timers = new Set<TimerHandle>();
  readonly #holds = new Set<() => void>();
  #closed = false;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  later(ms: number, callback: () => void): void {
    if (this.#closed) return;
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(timer);
      callback();
    }, ms);
    this.#timers.add(timer);
  }

  /** Resolves when the request's caller gives up, the sandbox closes, or `ms` pass. */
  hold(request: Request, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#holds.delete(done);
        this.#clock.clearTimeout(timer);
        request.signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.#clock.setTimeout(done, ms);
      request.signal?.addEventListener('abort', done, { once: true });
      this.#holds.add(done);
      if (this.#closed) done();
    });
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) this.#clock.clearTimeout(timer);
    this.#timers.clear();
    for (const done of [...this.#holds]) done();
  }
}
