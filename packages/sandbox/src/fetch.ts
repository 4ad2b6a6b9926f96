/**
 * A `fetch` that hands every request to the sandbox in-process: what an embedded sandbox gives the
 * service client (`createServiceClient({ baseUrl, apiKey, fetch: createSandboxFetch(sandbox) })`),
 * with no port, no msw and no network.
 */
import type { Sandbox } from './sandbox.js';

export function createSandboxFetch(sandbox: Sandbox, options: { basePath?: string } = {}): typeof fetch {
  const direct = async (input: string | URL | Request, init?: RequestInit) =>
    sandbox.handle(new Request(input, init), options);
  return direct as typeof fetch;
}
