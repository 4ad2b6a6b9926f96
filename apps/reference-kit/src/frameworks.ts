/**
 * `FRAMEWORK=express|koa|hono`: the same server on each framework, so every reference server
 * demonstrates all three adapters. Each entry serves the server's own GET routes (`/healthz`,
 * `/readyz`, `/bnpl/complete`, the sandbox's `/v1/demo-user`), then mounts the kit's router, and
 * answers anything else with a 404 problem. It returns a Node request listener; the HTTP server
 * around it is shared (http-server.ts).
 *
 * Only the chosen framework is loaded: each lives in a module of its own, imported when selected,
 * so a Hono server never pays for loading Express or Koa (and their dependencies) at start-up.
 */
import type { FrameworkName } from './config.js';
import type { FrameworkStarter } from './frameworks/shared.js';

export type { FrameworkStarter, NodeListener } from './frameworks/shared.js';

const LOADERS: Record<FrameworkName, () => Promise<FrameworkStarter>> = {
  express: async () => (await import('./frameworks/express.js')).startExpress,
  koa: async () => (await import('./frameworks/koa.js')).startKoa,
  hono: async () => (await import('./frameworks/hono.js')).startHono,
};

/** The starter of the named framework, its modules loaded on this call. */
export function loadFramework(name: FrameworkName): Promise<FrameworkStarter> {
  return LOADERS[name]();
}
