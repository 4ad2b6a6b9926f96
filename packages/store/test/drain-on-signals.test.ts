/**
 * `drainOnSignals`: a server whose listener is not the app's (Next's `next start`) never exits by
 * itself once drained, so `exit: true` exits with the drain's outcome; without it only the exit
 * code is set (the closed listener lets the process end).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDrain, drainOnSignals } from '../src/worker.js';

const removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

/** Sends the signal to this process's handlers and waits until the drain has run its steps. */
async function signalAndDrain(options: { exit?: boolean }, steps: Parameters<typeof createDrain>[0]) {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  const drain = createDrain(steps);
  removers.push(drainOnSignals(drain, { ...options, signals: ['SIGUSR2'] }));
  process.emit('SIGUSR2', 'SIGUSR2');
  await drain.start().catch(() => undefined);
  await new Promise((resolve) => setImmediate(resolve));
  return exit;
}

describe('drainOnSignals', () => {
  it('with exit: exits 0 once every step ran', async () => {
    const ran: string[] = [];
    const exit = await signalAndDrain({ exit: true }, [
      ['requests', () => ran.push('requests')],
      ['store', () => ran.push('store')],
    ]);
    expect(ran).toEqual(['requests', 'store']);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('with exit: exits 1 when a step failed', async () => {
    const exit = await signalAndDrain({ exit: true }, [
      [
        'worker',
        () => {
          throw new Error('stuck');
        },
      ],
    ]);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('without exit: sets the exit code only', async () => {
    const exit = await signalAndDrain({}, [['store', () => undefined]]);
    expect(exit).not.toHaveBeenCalled();
    expect(process.exitCode).toBe(0);
  });
});
