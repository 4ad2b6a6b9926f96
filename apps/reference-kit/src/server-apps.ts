/**
 * What answers requests once the market is built: the chosen framework with the server's own
 * routes and the API reference, and, next to the embedded sandbox, the demo shop at `/`. Each is
 * loaded here, when the configuration asks for it.
 */
import type { IntegrationMode, Market, Secret } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';
import type { Drain, JobWorker } from '@bnpl-kit/store/worker';
import type { Logger } from 'pino';
import { apiReferenceRoutes } from './api-reference.js';
import type { ServerConfig } from './config.js';
import { type DemoUserDeps, demoUsersBody } from './demo-user.js';
import { SANDBOX_MOUNT } from './embedded-sandbox.js';
import { errorCatalogueRoutes } from './error-pages.js';
import { loadFramework } from './frameworks.js';
import type { HttpServer } from './http-server.js';
import { createOwnRoutes } from './own-routes.js';

export async function installFramework(input: {
  http: HttpServer;
  config: ServerConfig;
  market: Market;
  store: Store;
  drain: Drain;
  worker: JobWorker;
  demo: DemoUserDeps | undefined;
  publicBaseUrl: string;
  logger: Logger;
  marketApiToken: Secret;
}): Promise<void> {
  const { config, publicBaseUrl } = input;
  // The kit's generated OpenAPI document for this mode, and a reference page rendered from it.
  const openApi = async () => {
    const { marketOpenApi } = await import('@bnpl-kit/core/openapi');
    return marketOpenApi({
      integrationMode: config.integrationMode,
      mode: config.mode,
      serverUrl: publicBaseUrl,
    });
  };
  const own = {
    ...createOwnRoutes(
      input.store,
      { drain: input.drain, worker: input.worker },
      input.demo,
      input.marketApiToken,
    ),
    ...apiReferenceRoutes(openApi),
    ...errorCatalogueRoutes(),
  };
  const start = await loadFramework(config.framework);
  input.http.setApp(start(input.market, own, input.logger));
}

/** The demo shop exists only next to the embedded sandbox: loaded only then. Returns its URL. */
export async function installDemoShop(input: {
  http: HttpServer;
  market: Market;
  mode: IntegrationMode;
  demo: DemoUserDeps;
  marketApiToken: Secret;
  apiKey: Secret;
  appId: string;
  store: Store;
  publicBaseUrl: string;
}): Promise<string> {
  const { createDemoShopHandler, demoUsersFrom } = await import('@bnpl-kit/demo-shop');
  const { demo } = input;
  input.http.setShop(
    createDemoShopHandler({
      market: input.market,
      marketApiToken: input.marketApiToken.reveal(),
      mode: input.mode,
      serviceUrl: SANDBOX_MOUNT,
      apiKey: input.apiKey.reveal(),
      marketId: input.appId,
      orderStatus: input.store,
      demoUsers: async () => demoUsersFrom(await demoUsersBody(demo)),
    }),
  );
  return `${input.publicBaseUrl}/`;
}
