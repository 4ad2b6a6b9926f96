/**
 * The sandbox over real HTTP with node:http (the CLI's `bnpl-kit sandbox`, `certify`, and tests that
 * need a listening server), through core's one Node bridge. Node-only, so `node:http` is imported
 * lazily and the package's main entry stays runtime-neutral.
 */
import type { Server } from 'node:http';
import { createNodeListener } from '@bnpl-kit/core/node';
import { adminExposure } from './loopback.js';
import type { SandboxOptions } from './options.js';
import { createSandbox, type Sandbox } from './sandbox.js';

export interface SandboxServerOptions extends SandboxOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve an existing sandbox instead of creating one from the options. */
  sandbox?: Sandbox;
  /** Largest request body accepted. Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface SandboxServer {
  /** e.g. `http://127.0.0.1:4010`: the service base URL for the market's `SERVICE_API_URL`. */
  url: string;
  port: number;
  sandbox: Sandbox;
  server: Server;
  /**
   * Said once at start-up, for the operator: e.g. that the admin API is closed because the server
   * listens beyond loopback without an admin token.
   */
  warnings: string[];
  close(): Promise<void>;
}

export async function startSandboxServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const { createServer } = await import('node:http');
  const {
    port = 4010,
    host = '127.0.0.1',
    sandbox: given,
    maxBodyBytes = 1024 * 1024,
    ...sandboxOptions
  } = options;
  const sandbox = given ?? createSandbox(sandboxOptions);
  const warnings: string[] = [];
  // Organisations' signing keys and every provider action sit behind the admin API: anyone who
  // can reach a non-loopback listener could read or act, so it needs a token there.
  const exposed = adminExposure(host, sandbox.adminOpen ? undefined : 'guarded');
  if (exposed !== undefined) {
    sandbox.requireAdminToken(exposed);
    warnings.push(
      `The sandbox admin API (/sandbox/..., signing keys included) is closed: ${exposed}. ` +
        'Set an admin token (--admin-token) to use it from other machines.',
    );
  }
  let listener: ReturnType<typeof createNodeListener> | undefined;
  // The listener is made once the port (and so the origin of request URLs) is known.
  const server = createServer((req, res) => listener?.(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${shownHost}:${actualPort}`;
  // The bridge aborts a request's signal when its client hangs up, which releases an injected
  // "timeout" answer at once.
  listener = createNodeListener(sandbox, { baseUrl: origin, maxBodyBytes });
  return {
    url: origin,
    port: actualPort,
    sandbox,
    server,
    warnings,
    async close() {
      if (!given) sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
