/**
 * msw v2 handlers that hand every request under `baseUrl` to the sandbox, so in-process tests use
 * the same simulated service as the standalone server (uploadthing's test helpers do the same with
 * one handler set and a spy). The spy is `sandbox.calls`.
 */
import { type HttpHandler, http } from 'msw';
import type { Sandbox } from './sandbox.js';

export interface SandboxHandlersOptions {
  /** Where the client thinks the service is, e.g. `https://sandbox.bnpl.test` or `http://x/api`. */
  baseUrl: string;
}

export const DEFAULT_SANDBOX_BASE_URL = 'https://sandbox.bnpl.test';

export function createSandboxHandlers(
  sandbox: Sandbox,
  options: SandboxHandlersOptions = { baseUrl: DEFAULT_SANDBOX_BASE_URL },
): HttpHandler[] {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  return [http.all(`${base.origin}${basePath}/*`, ({ request }) => sandbox.handle(request, { basePath }))];
}
