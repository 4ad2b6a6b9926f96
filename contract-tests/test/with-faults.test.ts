import { describe, expect, it } from 'vitest';
import type { RouteFaultSpec } from '../src/sandbox/driver.js';
import { withFaults } from '../src/support/faults.js';

/** A sandbox that records what it was asked, and refuses the fault named `refuse`. */
function recordingSandbox(refuse?: string) {
  const asked: string[] = [];
  const sandbox = {
    async injectFault(fault: RouteFaultSpec) {
      asked.push(`inject ${fault.operation}`);
      if (fault.operation === refuse) throw new Error(`refused ${refuse}`);
    },
    async clearFaults() {
      asked.push('clear');
    },
  };
  return { asked, ctx: { sandbox } as unknown as Parameters<typeof withFaults>[0] };
}

const fault = (operation: string): RouteFaultSpec => ({ operation, action: 'error', status: 500 });

describe('withFaults', () => {
  it('injects every fault in order before the step, clears after it, and hands back its result', async () => {
    const { asked, ctx } = recordingSandbox();
    const result = await withFaults(ctx, [fault('createOrder'), fault('token')], async () => {
      asked.push('step');
      return 42;
    });
    expect(result).toBe(42);
    expect(asked).toEqual(['inject createOrder', 'inject token', 'step', 'clear']);
  });

  it('clears when the step throws, and passes the error on', async () => {
    const { asked, ctx } = recordingSandbox();
    await expect(
      withFaults(ctx, [fault('getOrder')], async () => {
        throw new Error('step failed');
      }),
    ).rejects.toThrow('step failed');
    expect(asked).toEqual(['inject getOrder', 'clear']);
  });

  it('clears the faults already injected when a later injection fails, and skips the step', async () => {
    const { asked, ctx } = recordingSandbox('token');
    await expect(
      withFaults(ctx, [fault('createOrder'), fault('token')], async () => asked.push('step')),
    ).rejects.toThrow('refused token');
    expect(asked).toEqual(['inject createOrder', 'inject token', 'clear']);
  });
});
