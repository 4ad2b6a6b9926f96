/**
 * `startReferenceServer`: one reference market backend, wired from its configuration. The order
 * matters: the server listens first (with PORT=0 the URL is only known then), then the embedded
 * sandbox, the market handler and the framework are built for that URL and installed.
 */
import { join } from 'node:path';
import {
  createMarket,
  createServiceClient,
  type IntegrationMode,
  type Market,
  type Secret,
  type ServiceClient,
} from '@bnpl-kit/core';
import { marketOpenApi } from '@bnpl-kit/core/openapi';
import type { SandboxOptions } from '@bnpl-kit/sandbox';
import { type OpenStoreOptions, openStore, redactDatabaseUrl, type Store } from '@bnpl-kit/store';
import type { Logger } from 'pino';
import { apiReferenceRoutes } from './api-reference.js';
import { loadServerConfig, type ServerConfig, type ServerDefaults } from './config.js';
import { demoUsersBody } from './demo-user.js';
import { DISBURSE_JOB, runDisbursement } from './disbursement.js';
import {
  type EmbeddedSandbox,
  providingBasicProfile,
  SANDBOX_MOUNT,
  startEmbeddedSandbox,
} from './embedded-sandbox.js';
import { FRAMEWORKS } from './frameworks.js';
import { basicHooks, dataSharingHooks, type HookDeps } from './hooks.js';
import { createHttpServer } from './http-server.js';
import { type DisbursementInvoiceSource, referenceInvoice } from './invoice.js';
import { ensureSandboxKeys, type SandboxKeys } from './keys.js';
import { createLogger } from './logger.js';
import { BNPL_COMPLETE_PATH, createOwnRoutes } from './own-routes.js';
import { seedDemoUsers } from './seed.js';
import { createWebhookHostWarning } from './webhook-host-hint.js';
import { createJobWorker, type JobRunner, type JobWorker } from './worker.js';

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
  /** Worker polling (tests shorten the idle wait). */
  worker?: { minIdleMs?: number; maxIdleMs?: number };
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
  worker: JobWorker | undefined;
  /** Sandbox mode: the keys in use, and the `export` lines of any generated on this start. */
  keys: SandboxKeys | undefined;
  logger: Logger;
  /** Graceful: stop accepting, drain, stop the worker, close the sandbox and the database. */
  close(): Promise<void>;
}

const WEBHOOK_PATH = '/v1/webhook';

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** A database that cannot be used at start-up, said in terms of the variable to fix. */
function databaseStartError(error: unknown, config: ServerConfig): Error {
  const cause = error instanceof Error ? error : new Error(String(error));
  if (config.databaseUrl === undefined) {
    return new Error(
      `the embedded database in DATA_DIR=${config.dataDir} cannot be opened: ${cause.message}`,
      {
        cause,
      },
    );
  }
  const where = redactDatabaseUrl(config.databaseUrl.reveal());
  const reason = (cause.cause instanceof Error ? cause.cause.message : undefined) ?? cause.message;
  return new Error(
    `DATABASE_URL (${where}) cannot be used: ${reason}. Check that PostgreSQL runs there and accepts ` +
      `connections (DATABASE_CONNECT_TIMEOUT_MS=${config.databaseConnectTimeoutMs})`,
    { cause },
  );
}

export async function startReferenceServer(options: StartReferenceServerOptions): Promise<ReferenceServer> {
  const config = loadServerConfig(options.env ?? process.env, options);
  const logger = options.logger ?? createLogger({ level: config.logLevel, base: { server: options.name } });
  // What to undo if the start fails half-way, newest first.
  const cleanup: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const step of cleanup.reverse()) await step();
  };
  try {
    const keys = config.mode === 'sandbox' ? await ensureSandboxKeys(config) : undefined;
    const store =
      options.store ??
      (await openStore({
        databaseUrl: config.databaseUrl?.reveal(),
        dataDir: join(config.dataDir, 'pglite'),
        schema: config.databaseSchema,
        logger: logger.child({ component: 'store' }),
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
        ...options.storeOptions,
      }).catch((error: unknown) => {
        throw databaseStartError(error, config);
      }));
    if (!options.store) cleanup.push(() => store.close());

    const state = { draining: false };
    let worker: JobWorker | undefined;
    // A webhook that readiness arrived with has committed its job by the time it is answered:
    // wake the worker now rather than at its next poll.
    const warnWebhookHost = createWebhookHostWarning(logger);
    let webhookUrl: string | undefined;
    const http = createHttpServer(
      logger,
      (path, status, req) => {
        if (path !== WEBHOOK_PATH) return;
        if (status === 200) worker?.nudge();
        else if (status === 401 && webhookUrl) warnWebhookHost(req.headers.host, webhookUrl);
      },
      { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs },
    );
    const { port } = await http.listen(config.port, config.host);
    cleanup.push(() => http.close());
    const url = `http://${urlHost(config.host)}:${port}`;
    const publicBaseUrl = (config.publicBaseUrl ?? url).replace(/\/+$/, '');

    const appId = keys?.appId ?? config.appId!;
    const apiKey = keys?.appApiKey ?? config.appApiKey!;
    const marketApiToken = keys?.marketApiToken ?? config.marketApiToken!;
    const appSigningKey = keys?.appSigningKey ?? config.appSigningKey;

    let embedded: EmbeddedSandbox | undefined;
    if (config.embeddedSandbox && keys) {
      embedded = await startEmbeddedSandbox({
        config,
        keys,
        publicBaseUrl,
        store,
        options: {
          onPersistError: (err) => logger.error({ err }, 'the sandbox could not store its state'),
          ...options.sandboxOptions,
        },
      });
      const sandbox = embedded.sandbox;
      cleanup.push(() => sandbox.closeAndFlush());
      http.setSandbox(sandbox);
    }
    const service = embedded?.service ?? createServiceClient({ baseUrl: config.serviceApiUrl!, apiKey });
    if (keys) await seedDemoUsers(store, keys.demoSessions);

    const dataSharing = config.integrationMode === 'data-sharing';
    const hookDeps: HookDeps = {
      store,
      logger,
      marketApiToken,
      appId,
      providingBasicProfile:
        config.mode === 'sandbox' ? providingBasicProfile(config) : config.providingBasicProfile,
      bnplCallbackUrl: config.bnplCallbackUrl ?? `${publicBaseUrl}${BNPL_COMPLETE_PATH}`,
      getDisbursementInvoice: options.getDisbursementInvoice ?? referenceInvoice,
    };
    const market = createMarket({
      config: {
        ...config,
        appId,
        appSigningKey,
        publicBaseUrl,
        servicePublicKey: embedded?.servicePublicKey ?? config.servicePublicKey,
      },
      hooks: dataSharing ? dataSharingHooks(hookDeps) : basicHooks(hookDeps),
      service,
      store,
      logger,
    });
    webhookUrl = market.webhookUrl;

    if (dataSharing) {
      const { getDisbursementInvoice } = hookDeps;
      const disburse: JobRunner = (job) =>
        runDisbursement({ store, service, logger, getDisbursementInvoice }, job as never);
      const started = createJobWorker({
        store,
        runners: { [DISBURSE_JOB]: disburse },
        logger,
        leaseMs: config.jobLeaseMs,
        ...options.worker,
      });
      started.start();
      worker = started;
      cleanup.push(() => started.stop());
    }
    const demo = keys && { ...hookDeps, demoSessions: keys.demoSessions, dataSharing };
    // The kit's generated OpenAPI document for this mode, and a reference page rendered from it.
    const openApi = marketOpenApi({
      integrationMode: config.integrationMode,
      mode: config.mode,
      serverUrl: publicBaseUrl,
    });
    const own = { ...createOwnRoutes(store, state, demo), ...apiReferenceRoutes(openApi) };
    http.setApp(FRAMEWORKS[config.framework](market, own, logger));
    // With the embedded sandbox, the demo shop at `/` buys through the web SDK (apps/demo-shop).
    const shopUrl = embedded && demo ? `${publicBaseUrl}/` : undefined;
    if (embedded && demo) {
      // The demo shop exists only next to the embedded sandbox: loaded only then.
      const { createDemoShopHandler, demoUsersFrom } = await import('@bnpl-kit/demo-shop');
      http.setShop(
        createDemoShopHandler({
          market,
          marketApiToken: marketApiToken.reveal(),
          mode: config.integrationMode,
          serviceUrl: SANDBOX_MOUNT,
          apiKey: apiKey.reveal(),
          marketId: appId,
          orderStatus: store,
          demoUsers: async () => demoUsersFrom(await demoUsersBody(demo)),
        }),
      );
    }

    let closing: Promise<void> | undefined;
    return {
      name: options.name,
      config,
      url,
      port,
      publicBaseUrl,
      appId,
      marketApiToken,
      store,
      market,
      service,
      embedded,
      shopUrl,
      worker,
      keys,
      logger,
      close() {
        closing ??= (async () => {
          // Readiness answers 503 first, then: stop accepting and drain → worker → sandbox → database.
          state.draining = true;
          await http.close();
          await worker?.stop();
          await embedded?.sandbox.closeAndFlush();
          if (!options.store) await store.close();
          logger.info({}, 'stopped');
        })();
        return closing;
      },
    };
  } catch (error) {
    await closeAll().catch(() => {});
    throw error;
  }
}
