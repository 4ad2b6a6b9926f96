/**
 * The Node HTTP server around the framework: request IDs and one access-log line per request, the
 * embedded sandbox under `/sandbox-service` (outside the market app: it plays the service), and a
 * graceful close that stops accepting, lets in-flight requests finish and only then cuts the rest.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MarketLogger } from '@bnpl-kit/core';
import {
  handleNodeRequest,
  hardenServer,
  RECOMMENDED_SERVER_LIMITS,
  type ServerLimits,
} from '@bnpl-kit/core/node';
import type { Sandbox } from '@bnpl-kit/sandbox';
import { SANDBOX_MOUNT } from './embedded-sandbox.js';
import type { NodeListener } from './frameworks.js';
import { METRICS_PATH } from './telemetry.js';

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const SANDBOX_MAX_BODY_BYTES = 1024 * 1024;

/** Browsers (the web SDK) call the sandbox's service routes cross-origin; the admin API stays same-origin. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, x-api-key, idempotency-key, x-request-id',
  'access-control-max-age': '600',
};

export interface HttpServer {
  server: Server;
  listen(port: number, host: string): Promise<{ port: number }>;
  /** Installs the framework once it is built (it needs the URL, which needs the port). */
  setApp(listener: NodeListener): void;
  /**
   * Everything is installed: requests that arrived since `listen` (the port is needed to build the
   * app, so it listens first) were held, not answered 503 "Starting"; they are routed now.
   */
  markReady(): void;
  setSandbox(sandbox: Sandbox): void;
  /** The demo shop at the root (sandbox mode): it answers the paths it owns, the app the rest. */
  setShop(shop: FetchApp): void;
  /** `GET /metrics` (Prometheus), answered before the framework sees the request. */
  setMetrics(route: NodeListener | undefined): void;
  /** Stops accepting, waits up to `drainMs` for in-flight requests, then closes what is left. */
  close(drainMs?: number): Promise<void>;
}

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && REQUEST_ID.test(given)) return given;
  const id = randomUUID();
  // The market reads the ID from the request headers: hand it the one this line is logged with.
  req.rawHeaders.push('x-request-id', id);
  req.headers['x-request-id'] = id;
  return id;
}

function serveSandbox(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse, path: string): void {
  const serviceRoute = path.startsWith(`${SANDBOX_MOUNT}/v1/`);
  if (serviceRoute) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
  if (serviceRoute && req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return;
  }
  void handleNodeRequest((request) => sandbox.handle(request, { basePath: SANDBOX_MOUNT }), req, res, {
    maxBodyBytes: SANDBOX_MAX_BODY_BYTES,
  });
}

/** A fetch-style app that says which paths it answers (the demo shop). */
export interface FetchApp {
  handle(request: Request): Promise<Response>;
  ownsPath(path: string): boolean;
}

/** Timeouts and the connection cap of the reference servers: core's recommended settings. */
export type HttpLimits = Partial<ServerLimits>;

export function createHttpServer(
  logger: MarketLogger,
  /** Called after each response, e.g. to wake the job worker after a webhook. */
  afterResponse?: (path: string, status: number, req: IncomingMessage) => void,
  limits: HttpLimits = RECOMMENDED_SERVER_LIMITS,
): HttpServer {
  let app: NodeListener | undefined;
  let sandbox: Sandbox | undefined;
  let shop: FetchApp | undefined;
  let metrics: NodeListener | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  let isReady = false;
  void ready.then(() => {
    isReady = true;
  });
  const server = createServer((req, res) => {
    if (isReady) route(req, res);
    else void ready.then(() => route(req, res));
  });
  function route(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const reqId = requestIdOf(req);
    res.setHeader('x-request-id', reqId);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.on('close', () => {
      const line = {
        reqId,
        method: req.method,
        path,
        status: res.headersSent ? res.statusCode : 0,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (QUIET_PATHS.has(path)) logger.debug(line, 'request');
      else logger.info(line, 'request');
      afterResponse?.(path, line.status, req);
    });
    if (sandbox && (path === SANDBOX_MOUNT || path.startsWith(`${SANDBOX_MOUNT}/`))) {
      serveSandbox(sandbox, req, res, path);
    } else if (metrics && path === METRICS_PATH && req.method === 'GET') {
      metrics(req, res);
    } else if (shop?.ownsPath(path)) {
      void handleNodeRequest(shop, req, res);
    } else if (app) {
      app(req, res);
    } else {
      res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' });
      res.end(JSON.stringify({ title: 'Starting', status: 503, detail: 'The server is starting' }));
    }
  }
  // Chosen for an API rather than Node's defaults: trickling headers or bodies get a 408 problem,
  // silent connections are closed, and a flood of connections cannot exhaust file descriptors.
  hardenServer(server, {
    ...limits,
    onClientError: (error) => logger.info({ code: error.code }, 'connection refused by the HTTP parser'),
    onConnectionClosed: (reason) => logger.debug({ reason }, 'connection closed'),
  });

  return {
    server,
    async listen(port, host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return { port: (server.address() as AddressInfo).port };
    },
    setApp(listener) {
      app = listener;
    },
    markReady,
    setSandbox(next) {
      sandbox = next;
    },
    setShop(next) {
      shop = next;
    },
    setMetrics(next) {
      metrics = next;
    },
    async close(drainMs = 10_000) {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections hold no request: drop them now, and as in-flight ones finish.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => {
        logger.warn({ drainMs }, 'requests still running after the drain period; closing their connections');
        server.closeAllConnections();
      }, drainMs);
      try {
        await closed;
      } finally {
        clearInterval(sweep);
        clearTimeout(deadline);
      }
    },
  };
}
