/**
 * `startReferenceServer`: one reference market backend, wired from its configuration. The order
 * matters: the server listens first (with PORT=0 the URL is only known then), then the embedded
 * sandbox, the market handler and the framework are built for that URL and installed. Each step
 * lives in a module of its own (server-*.ts); what a configuration does not use is never loaded.
 */
import type { IncomingMessage } from 'node:http';
import type { IntegrationMode, Market, Secret, ServiceClient } from '@bnpl-kit/core';
import type { SandboxOptions } from '@bnpl-kit/sandbox';
import type { OpenStoreOptions, Store } from '@bnpl-kit/store';
import { createDrain, type Drain, type JobWorker } from '@bnpl-kit/store/worker';
import type { Logger } from 'pino';
import { loadServerConfig, type ServerConfig, type ServerDefaults } from './config.js';
import {
  type CertificationTarget,
  type ConsoleCertificationOptions,
  createConsoleCertifier,
} from './console-certification.js';
import type { EmbeddedSandbox } from './embedded-sandbox.js';
import { createHttpServer, type HttpServer } from './http-server.js';
import type { DisbursementInvoiceSource } from './invoice.js';
import { ensureSandboxKeys, type SandboxKeys } from './keys.js';
import { createLogger } from './logger.js';
import { BNPL_COMPLETE_PATH } from './own-routes.js';
import { seedDemoUsers } from './seed.js';
import { installDemoShop, installFramework } from './server-apps.js';
import { createServerMarket } from './server-market.js';
import { connectService, serverCredentials } from './server-service.js';
import { openServerStore } from './server-store.js';
import { startServerWorker } from './server-worker.js';
import { installTelemetry, metricsRoute } from './telemetry.js';
import { createWebhookHostWarning } from './webhook-host-hint.js';

export interface StartReferenceServerOptions {
  integrationMode: IntegrationMode;
  /** `basic-server` or `data-sharing-server`: on every log line and in messages. */
  name: string;
  defaults: ServerDefaults;
  /** Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Default: pino on stdout at LOG_LEVEL. */
  logger?: Logger;
  /** A store shared with other servers (tests); the server then does not close it. */
  store?: Store;
  /** Extra store options, e.g. `{ memory: true }` for tests. */
  storeOptions?: Partial<OpenStoreOptions>;
  /** Extra embedded-sandbox options, e.g. a compressed webhook retry schedule. */
  sandboxOptions?: Partial<SandboxOptions>;
  /** The embedded sandbox console's Certification page, e.g. `only` some checks (tests). */
  consoleCertification?: ConsoleCertificationOptions;
  /** Worker polling (tests shorten the idle wait) and the clock of its periodic jobs (tests move it). */
  worker?: { minIdleMs?: number; maxIdleMs?: number; now?: () => Date };
  /** The invoice for disbursements that come without one; default `referenceInvoice`. */
  getDisbursementInvoice?: DisbursementInvoiceSource;
}

export interface ReferenceServer {
  name: string;
  config: ServerConfig;
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  /** `PUBLIC_BASE_URL`, or the listening URL in sandbox mode. */
  publicBaseUrl: string;
  appId: string;
  marketApiToken: Secret;
  store: Store;
  market: Market;
  service: ServiceClient;
  embedded: EmbeddedSandbox | undefined;
  /** The demo shop (`/`), served with the embedded sandbox. */
  shopUrl: string | undefined;
  /** Disbursement jobs (data-sharing), reconciliation and retention: `@bnpl-kit/store/worker`. */
  worker: JobWorker;
  /** Sandbox mode: the keys in use, and the `export` lines of any generated on this start. */
  keys: SandboxKeys | undefined;
  logger: Logger;
  /**
   * Graceful: readiness 503, then (after `graceMs`, on a signal `DRAIN_GRACE_MS`) stop accepting,
   * drain, stop the worker, close the sandbox and the database.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const WEBHOOK_PATH = '/v1/webhook';

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** What to undo if the start fails half-way, newest first. */
function createCleanup() {
  const steps: (() => Promise<void> | void)[] = [];
  return {
    push: (step: () => Promise<void> | void) => void steps.push(step),
    async run() {
      for (const step of steps.reverse()) await step();
    },
  };
}

/**
 * The HTTP server, with what follows a webhook's answer: a 200 wakes the worker now rather than at
 * its next poll (readiness has committed its job by then); a 401 under another Host than the
 * registered URL gets the registration hint logged.
 */
function createServerHttp(config: ServerConfig, logger: Logger) {
  const follow: { worker?: JobWorker; webhookUrl?: string } = {};
  const warnWebhookHost = createWebhookHostWarning(logger);
  const afterResponse = (path: string, status: number, req: IncomingMessage) => {
    if (path !== WEBHOOK_PATH) return;
    if (status === 200) follow.worker?.nudge();
    else if (status === 401 && follow.webhookUrl) warnWebhookHost(req.headers.host, follow.webhookUrl);
  };
  const http = createHttpServer(logger, afterResponse, {
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    maxConnections: config.maxConnections,
  });
  return { http, follow };
}

/**
 * Graceful, once (`createDrain`): readiness answers 503 from the first step on, then stop accepting
 * and drain the HTTP server → drain the worker → sandbox → database.
 */
function shutdown(parts: {
  http: HttpServer;
  worker: JobWorker;
  embedded: EmbeddedSandbox | undefined;
  store: Store | undefined;
  logger: Logger;
}): Drain {
  return createDrain(
    [
      ['http', () => parts.http.close()],
      ['worker', () => parts.worker.stop()],
      ['sandbox', () => parts.embedded?.sandbox.closeAndFlush()],
      ['store', () => parts.store?.close()],
      ['log', () => parts.logger.info({}, 'stopped')],
    ],
    { logger: parts.logger },
  );
}

export async function startReferenceServer(options: StartReferenceServerOptions): Promise<ReferenceServer> {
  const config = loadServerConfig(options.env ?? process.env, options);
  const logger = options.logger ?? createLogger({ level: config.logLevel, base: { server: options.name } });
  const cleanup = createCleanup();
  try {
    const keys = config.mode === 'sandbox' ? await ensureSandboxKeys(config) : undefined;
    const store = await openServerStore(config, options, logger);
    if (!options.store) cleanup.push(() => store.close());

    const { http, follow } = createServerHttp(config, logger);
    http.setMetrics(
      metricsRoute(await installTelemetry(options.env ?? process.env), {
        production: config.mode === 'production',
        token: config.metricsToken,
      }),
    );
    const { port } = await http.listen(config.port, config.host);
    cleanup.push(() => http.close());
    const url = `http://${urlHost(config.host)}:${port}`;
    const publicBaseUrl = (config.publicBaseUrl ?? url).replace(/\/+$/, '');

    const credentials = serverCredentials(config, keys);
    // The console's Certification page certifies this server; what it needs is known below.
    let certificationTarget: CertificationTarget | undefined;
    const certification = createConsoleCertifier(
      config.integrationMode,
      () => certificationTarget,
      options.consoleCertification,
    );
    const { service, embedded } = await connectService({
      config,
      keys,
      apiKey: credentials.apiKey,
      publicBaseUrl,
      store,
      logger,
      sandboxOptions: { certification, ...options.sandboxOptions },
    });
    if (embedded) {
      cleanup.push(() => embedded.sandbox.closeAndFlush());
      http.setSandbox(embedded.sandbox);
      if (keys?.sandboxSigningKey) {
        certificationTarget = {
          marketUrl: publicBaseUrl,
          marketToken: credentials.marketApiToken.reveal(),
          callbackUrl: `${publicBaseUrl}${BNPL_COMPLETE_PATH}`,
          serviceUrl: embedded.serviceUrl,
          organizationId: credentials.appId,
          apiKey: keys.appApiKey.reveal(),
          signingKey: keys.sandboxSigningKey.reveal(),
        };
      }
    }
    if (keys) await seedDemoUsers(store, keys.demoSessions);

    const { market, hookDeps } = createServerMarket({
      config,
      credentials,
      publicBaseUrl,
      embedded,
      service,
      store,
      logger,
      getDisbursementInvoice: options.getDisbursementInvoice,
    });
    follow.webhookUrl = market.webhookUrl;

    const dataSharing = config.integrationMode === 'data-sharing';
    const worker = startServerWorker({
      config,
      store,
      service,
      logger,
      getDisbursementInvoice: hookDeps.getDisbursementInvoice,
      polling: options.worker,
    });
    cleanup.push(() => worker.stop().then(() => {}));
    follow.worker = worker;
    const drain = shutdown({ http, worker, embedded, store: options.store ? undefined : store, logger });

    const demo = keys && { ...hookDeps, demoSessions: keys.demoSessions, dataSharing };
    await installFramework({
      http,
      config,
      market,
      store,
      drain,
      worker,
      demo,
      publicBaseUrl,
      logger,
      marketApiToken: credentials.marketApiToken,
    });
    // With the embedded sandbox, the demo shop at `/` buys through the web SDK (apps/demo-shop).
    const shopUrl =
      embedded && demo
        ? await installDemoShop({
            http,
            market,
            mode: config.integrationMode,
            demo,
            marketApiToken: credentials.marketApiToken,
            apiKey: credentials.apiKey,
            appId: credentials.appId,
            store,
            publicBaseUrl,
          })
        : undefined;

    http.markReady();
    return {
      name: options.name,
      config,
      url,
      port,
      publicBaseUrl,
      appId: credentials.appId,
      marketApiToken: credentials.marketApiToken,
      store,
      market,
      service,
      embedded,
      shopUrl,
      worker,
      keys,
      logger,
      close: (closeOptions) => drain.start(closeOptions),
    };
  } catch (error) {
    await cleanup.run().catch(() => {});
    throw error;
  }
}
