/**
 * A `fetch` that hands every request to the sandbox in-process: what an embedded sandbox gives the
 * service client (`createServiceClient({ baseUrl, apiKey, fetch: createSandboxFetch(sandbox) })`),
 * with no port, no msw and no network.
 */
import { KitError } from '@bnpl-kit/core';
import type { Sandbox } from './sandbox.js';

export interface SandboxFetchOptions {
  basePath?: string;
  /**
   * The sandbox keeps its records in the caller's own database (the reference servers' embedded
   * sandbox). Then its answer that it could not store a change (`503 store_unavailable`) is the
   * caller's database failing, not the service: the fetch rejects with that `KitError`, which the
   * service client passes on as it is, instead of an HTTP 503 it would blame on the service.
   */
  sharesStore?: boolean;
}

export function createSandboxFetch(sandbox: Sandbox, options: SandboxFetchOptions = {}): typeof fetch {
  const handleOptions = options.basePath === undefined ? {} : { basePath: options.basePath };
  const direct = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await sandbox.handle(new Request(input, init), handleOptions);
    if (options.sharesStore === true && response.status === 503 && (await storeFailed(response))) {
      throw new KitError(
        'store_unavailable',
        'The embedded sandbox could not store its records in this server’s database; try again',
      );
    }
    return response;
  };
  return direct as typeof fetch;
}

async function storeFailed(response: Response): Promise<boolean> {
  try {
    const problem = (await response.clone().json()) as { code?: unknown };
    return problem.code === 'store_unavailable';
  } catch {
    return false;
  }
}
