/**
 * Whether a connection's session state reaches the server: directly, or through a pooler. A
 * transaction-mode pooler (PgBouncer `pool_mode = transaction`, most managed poolers) hands each
 * transaction whichever server connection is free, so nothing set per connection survives:
 * PgBouncer refuses the `statement_timeout` / `options` startup parameters outright, or drops them
 * when told to ignore them, and a named prepared statement exists on one server connection and not
 * on the next. The executor asks once, at start-up, and then either keeps the settings in the
 * session (directly: no cost per statement) or sends them with every transaction (`SET LOCAL`).
 */
import { KitError } from '@bnpl-kit/core';
import pg from 'pg';

/**
 * `auto`: probe at start-up (the default). `none`: a direct connection (or a session-mode pooler
 * that passes startup parameters); session settings and named prepared statements. `transaction`:
 * nothing kept in the session, whatever the probe would say.
 */
export type PoolerMode = 'auto' | 'none' | 'transaction';

export interface SessionPlan {
  /** True: the startup parameters hold for every statement; false: `SET LOCAL` in each transaction. */
  sessionSettings: boolean;
  /** Why, for the start-up log line. */
  reason: string;
}

export interface ProbeOptions {
  connectionString: string;
  schema: string | undefined;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/** The startup parameters a direct connection carries the session settings in. */
export function startupParameters(schema: string | undefined, statementTimeoutMs: number) {
  return {
    statement_timeout: statementTimeoutMs,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  };
}

/** The statements that open every transaction when the session cannot carry the settings. */
export function transactionOpening(schema: string | undefined, statementTimeoutMs: number): string[] {
  const opening = ['BEGIN', `SET LOCAL statement_timeout = ${Math.trunc(statementTimeoutMs)}`];
  if (schema !== undefined) opening.push(`SET LOCAL search_path TO ${schema}`);
  return opening;
}

const REFUSED_PARAMETER = /unsupported startup parameter/i;
const STATEMENT_POOLING = /statement pooling mode|long transactions not allowed/i;

/** A pooler configuration under which the store cannot keep its guarantees: refuse to start. */
export class PoolerConfigurationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PoolerConfigurationError';
  }
}

async function connect(options: ProbeOptions, withParameters: boolean): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...(withParameters ? startupParameters(options.schema, options.statementTimeoutMs) : {}),
  });
  // An error after connect (server gone) must not crash the process while the probe runs.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return client;
}

/** Did the startup parameters take effect on the connection that answered? */
async function settingsHeld(client: pg.Client, options: ProbeOptions): Promise<boolean> {
  const { rows } = await client.query<{ timeout: string; path: string }>(
    `SELECT (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS timeout,
            current_setting('search_path') AS path`,
  );
  const row = rows[0];
  if (row === undefined || Number(row.timeout) !== Math.trunc(options.statementTimeoutMs)) return false;
  if (options.schema === undefined) return true;
  const first = row.path.split(',')[0]?.trim().replace(/^"|"$/g, '');
  return first?.toLowerCase() === options.schema.toLowerCase();
}

/** One transaction as the store runs them; a statement-mode pooler refuses it. */
async function transactionsWork(client: pg.Client, options: ProbeOptions): Promise<void> {
  try {
    // Two round trips: a statement-mode pooler accepts a whole transaction sent as one query, and
    // refuses only one left open between queries, as the store's are.
    await client.query(transactionOpening(options.schema, options.statementTimeoutMs).join('; '));
    await client.query('COMMIT');
  } catch (err) {
    if (err instanceof Error && STATEMENT_POOLING.test(err.message)) {
      throw new PoolerConfigurationError(
        'The connection pooler in front of the database runs in statement mode, which refuses ' +
          'multi-statement transactions: the store cannot record a webhook together with its effect ' +
          'there. Use pool_mode = transaction or session.',
        { cause: err },
      );
    }
    throw err;
  }
}

/** Decides how the settings reach the server; throws when the database cannot be used at all. */
export async function planSession(mode: PoolerMode, options: ProbeOptions): Promise<SessionPlan> {
  if (mode === 'none') return { sessionSettings: true, reason: 'configured: direct connection' };
  let client: pg.Client;
  let plan: SessionPlan;
  if (mode === 'transaction') {
    client = await connect(options, false);
    plan = { sessionSettings: false, reason: 'configured: transaction-mode pooler' };
  } else {
    try {
      client = await connect(options, true);
      plan = (await settingsHeld(client, options))
        ? { sessionSettings: true, reason: 'startup parameters hold: direct connection' }
        : {
            sessionSettings: false,
            reason: 'startup parameters ignored: a pooler, settings per transaction',
          };
    } catch (err) {
      if (!(err instanceof Error && REFUSED_PARAMETER.test(err.message))) throw err;
      client = await connect(options, false);
      plan = {
        sessionSettings: false,
        reason: 'startup parameters refused: a pooler, settings per transaction',
      };
    }
  }
  try {
    await transactionsWork(client, options);
  } finally {
    await client.end().catch(() => {});
  }
  return plan;
}

// SQLSTATE 42P05 (duplicate_prepared_statement), 26000 (invalid_sql_statement_name): a named
// statement met a server connection that already has it, or lacks it.
const PREPARED_CLASH = /^(42P05|26000)$/;

export function isPreparedStatementClash(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && PREPARED_CLASH.test(code);
}

/** What a clash turns into: retryable, and it names the setting to fix. */
export function preparedStatementClash(err: unknown): KitError {
  return new KitError(
    'store_unavailable',
    'Named prepared statements clash behind a transaction-mode connection pooler; the store now ' +
      'sends statements unnamed. Set preparedStatements: false (or use PgBouncer 1.21+ with ' +
      'max_prepared_statements) to avoid this.',
    { cause: err },
  );
}
