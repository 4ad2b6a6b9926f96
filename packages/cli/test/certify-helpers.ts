/**
 * For the certify tests: free ports, the `export` lines certify prints, and a correct (or broken)
 * market configured from them, listening where certify expects it.
 */
import { createServer, type Server } from 'node:http';
import { createTestMarket, type TestMarketConfig } from '@bnpl-kit/contract-tests/testing';
import type { Market } from '@bnpl-kit/core';
import { createNodeListener } from '@bnpl-kit/core/node';

export { configFromEnv } from '@bnpl-kit/contract-tests/testing';

/**
 * Below Linux's ephemeral range (32768–60999 by default). A port the kernel hands out for
 * `listen(0)` comes from that range, which every outgoing connection on the machine draws from too:
 * between picking it and certify's later listen (seconds, with a whole test run's connections in
 * between), a client socket could take it, and certify failed at once with exit 2 (seen under load).
 */
const LOW_PORTS = { from: 20_000, to: 32_000 };

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Handed out in this process already: two calls in a row must not pick the same free port. */
const handedOut = new Set<number>();

/** A port free now and outside the range outgoing connections take theirs from. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from));
    if (handedOut.has(port)) continue;
    // Taken before the await, so concurrent calls cannot both pick it.
    handedOut.add(port);
    if (await canListen(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free port between ${LOW_PORTS.from} and ${LOW_PORTS.to}`);
}

/** `export NAME=value` / `export NAME='value'` lines → a map. */
export function parseExports(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const match of text.matchAll(/^export ([A-Z_]+)=('(?:[^']|'\\'')*'|\S*)$/gm)) {
    const raw = match[2]!;
    vars[match[1]!] = raw.startsWith("'") ? raw.slice(1, -1).replaceAll("'\\''", "'") : raw;
  }
  return vars;
}

export interface RunningMarket {
  close(): Promise<void>;
}

/** Serves `market` (default: the correct test market for `config`) on `port`. */
export async function serveMarket(
  config: TestMarketConfig,
  port: number,
  market?: Market,
): Promise<RunningMarket> {
  const server: Server = createServer(createNodeListener(market ?? createTestMarket(config).market));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
