/**
 * The reference server's database at start-up: the store opened from the configuration (or the one
 * a test shares), and a failure said in terms of the variable to fix.
 */
import { join } from 'node:path';
import { openStore, redactDatabaseUrl, type Store } from '@bnpl-kit/store';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import type { StartReferenceServerOptions } from './server.js';

/** A database that cannot be used at start-up, said in terms of the variable to fix. */
export function databaseStartError(error: unknown, config: ServerConfig): Error {
  const cause = error instanceof Error ? error : new Error(String(error));
  if (config.databaseUrl === undefined) {
    return new Error(
      `the embedded database in DATA_DIR=${config.dataDir} cannot be opened: ${cause.message}`,
      { cause },
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

/** The store the server runs on: `options.store` when a test shares one, else opened and migrated. */
export async function openServerStore(
  config: ServerConfig,
  options: Pick<StartReferenceServerOptions, 'store' | 'storeOptions'>,
  logger: Logger,
): Promise<Store> {
  if (options.store) return options.store;
  return openStore({
    databaseUrl: config.databaseUrl?.reveal(),
    dataDir: join(config.dataDir, 'pglite'),
    schema: config.databaseSchema,
    logger: logger.child({ component: 'store' }),
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    ...options.storeOptions,
  }).catch((error: unknown) => {
    throw databaseStartError(error, config);
  });
}
