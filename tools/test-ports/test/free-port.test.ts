import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralLow, freePort, LOWEST_PORT } from '../src/index.js';

describe('freePort', () => {
  it('picks ports below the range outgoing connections draw from, never the same one twice', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(LOWEST_PORT);
      expect(port).toBeLessThan(ephemeralLow());
    }
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('hands out a port a server can then listen on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads the range's start from /proc, and falls back to Linux's default", () => {
    expect(ephemeralLow(() => '40000\t60999\n')).toBe(40_000);
    expect(
      ephemeralLow(() => {
        throw new Error('ENOENT');
      }),
    ).toBe(32_768);
    expect(ephemeralLow(() => 'garbage')).toBe(32_768);
  });
});
