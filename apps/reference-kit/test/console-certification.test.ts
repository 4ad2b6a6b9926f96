/** The runner the reference servers give their sandbox console (the run itself: apps/browser-e2e). */
import { describe, expect, it } from 'vitest';
import { createConsoleCertifier, RESTART_NOTICE } from '../src/console-certification.js';

describe('console certification runner', () => {
  it('certifies the server’s own mode, says restart is not exercised and how the CLI runs it', () => {
    const runner = createConsoleCertifier('data-sharing', () => undefined);
    expect(runner.modes).toEqual(['data-sharing']);
    expect(runner.notice).toBe(RESTART_NOTICE);
    expect(RESTART_NOTICE).toContain('--lacks restart');
    expect(RESTART_NOTICE).toContain('restart.state-survives');
    expect(RESTART_NOTICE).toContain('--start-command');
  });

  it('refuses to run before the server knows its own URL and sandbox', async () => {
    const runner = createConsoleCertifier('basic', () => undefined);
    const checks: unknown[] = [];
    await expect(
      runner.start({ mode: 'basic', organizationId: 'org', apiBaseUrl: undefined }, (c) => checks.push(c)),
    ).rejects.toThrow('still starting');
    expect(checks).toEqual([]);
  });
});
