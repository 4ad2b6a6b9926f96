import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort } from './certify-helpers.js';

/** Where the kernel starts handing out ports to client sockets (and to `listen(0)`). */
function ephemeralLow(): number {
  // Linux's range from /proc; 32768 (its default, and below macOS's 49152) elsewhere.
  const range = '/proc/sys/net/ipv4/ip_local_port_range';
  return existsSync(range) ? Number(readFileSync(range, 'utf8').trim().split(/\s+/)[0]) : 32_768;
}

describe('freePort', () => {
  it('picks ports outside the range outgoing connections draw from, never the same one twice', async () => {
    // What listen(0) used to hand out: a port any client socket on the machine could take next.
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(ephemeralLow());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
