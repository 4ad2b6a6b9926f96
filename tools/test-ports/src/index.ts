/**
 * Ports for a server a test starts later, outside the kernel's ephemeral range (README: why a port
 * from `listen(0)` is not one).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port handed out; below it are the registered ports services commonly use. */
export const LOWEST_PORT = 20_000;
/** Linux's default start of the ephemeral range, where /proc cannot be read (macOS's is 49152). */
const DEFAULT_EPHEMERAL_LOW = 32_768;

/** Where this machine's ephemeral range starts: client sockets and `listen(0)` take ports from there up. */
export function ephemeralLow(
  read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'),
): number {
  try {
    const low = Number(read().trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) return low;
  } catch {
    // Not Linux, or /proc is not mounted.
  }
  return DEFAULT_EPHEMERAL_LOW;
}

/** Whether a server can listen on `port` at 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Handed out by this process already: two calls must never pick the same port. */
const handedOut = new Set<number>();
const ATTEMPTS = 200;

/**
 * A port free on 127.0.0.1 now and below the ephemeral range, so no client socket takes it before
 * the test's server binds it. Random within the range, so test processes running side by side
 * rarely try the same one.
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralLow() - 1;
  if (highest - LOWEST_PORT < 1_000)
    throw new Error(
      `this machine's ephemeral range starts at ${highest + 1}: too few ports below it from ${LOWEST_PORT}`,
    );
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (highest - LOWEST_PORT + 1));
    if (handedOut.has(port)) continue;
    // Taken before the await, so concurrent calls cannot both pick it.
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST_PORT} and ${highest} after ${ATTEMPTS} attempts`);
}
