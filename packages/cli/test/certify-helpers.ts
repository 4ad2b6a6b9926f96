/**
 * For the certify tests: free ports, the `export` lines certify prints, and a correct (or broken)
 * market configured from them, listening where certify expects it.
 */
import { createServer, type Server } from 'node:http';
import { createTestMarket, type TestMarketConfig } from '@bnpl-kit/contract-tests/testing';
import type { Market } from '@bnpl-kit/core';
import { createNodeListener } from '@bnpl-kit/core/node';

export { configFromEnv } from '@bnpl-kit/contract-tests/testing';

/** Ports for certify's later listens: below the ephemeral range (tools/test-ports says why). */
export { freePort } from '@bnpl-kit/test-ports';

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
