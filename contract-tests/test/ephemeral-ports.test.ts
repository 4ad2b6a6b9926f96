/** certify names the cause when a market's port is one the system hands to client sockets. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralPortHint, ephemeralPortRange } from '../src/ephemeral-ports.js';
import { waitForHttp } from '../src/index.js';

describe('ephemeral ports', () => {
  it('reads the range, falling back to the Linux default', () => {
    expect(ephemeralPortRange(() => '40000\t50000\n')).toEqual([40000, 50000]);
    expect(
      ephemeralPortRange(() => {
        throw new Error('ENOENT');
      }),
    ).toEqual([32768, 60999]);
  });

  it('names the cause for a port inside the range only', () => {
    expect(ephemeralPortHint('http://127.0.0.1:45000', [32768, 60999])).toMatch(
      /Port 45000 is inside this machine's ephemeral port range \(32768–60999\).*below 32768/,
    );
    expect(ephemeralPortHint('http://127.0.0.1:3000', [32768, 60999])).toBeUndefined();
  });

  it("puts the cause in waitForHttp's error when nothing answers at such a port", async () => {
    // A port that nothing listens on: take one and free it.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const [low, high] = ephemeralPortRange();
    const wait = waitForHttp(`http://127.0.0.1:${port}/v1/demo-user`, { timeoutMs: 300 });
    if (port >= low && port <= high) await expect(wait).rejects.toThrow(/ephemeral port range/);
    else await expect(wait).rejects.toThrow(/Gave up after 300 ms/);
  });
});
