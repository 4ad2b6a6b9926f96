/**
 * Why a market may never answer at its port: on Linux, a port inside the ephemeral range
 * (`/proc/sys/net/ipv4/ip_local_port_range`, 32768–60999 by default) is handed out to client
 * sockets, so one may hold it when the market starts (the market cannot listen), or certify's own
 * connection attempt to it can land on itself. certify's "nothing answered" error names that cause.
 */
import { readFileSync } from 'node:fs';

const LINUX_DEFAULT: readonly [number, number] = [32768, 60999];

/** The ephemeral port range of this machine (Linux), or the Linux default where it cannot be read. */
export function ephemeralPortRange(
  read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'),
): readonly [number, number] {
  try {
    const [low, high] = read().trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux, or /proc is not mounted: the default says what most hosts use.
  }
  return LINUX_DEFAULT;
}

/** The sentence to add when nothing answered at `url`: its port is in the ephemeral range. */
export function ephemeralPortHint(url: string, range = ephemeralPortRange()): string | undefined {
  let port: number;
  try {
    const parsed = new URL(url);
    port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  } catch {
    return undefined;
  }
  const [low, high] = range;
  if (port < low || port > high) return undefined;
  return `Port ${port} is inside this machine's ephemeral port range (${low}–${high}), which the system hands to client sockets: one may hold it so the market could not listen (EADDRINUSE in its log). Run the market on a port below ${low}.`;
}
