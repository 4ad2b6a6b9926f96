/**
 * A transaction's first statement sent together with the statements that open the transaction
 * (`BEGIN`, and under a transaction-mode pooler its `SET LOCAL`s): one exchange with PostgreSQL
 * instead of two. A webhook with a hook costs BEGIN + statement + COMMIT; sent this way it costs
 * two exchanges, and on this machine each exchange is a sizeable share of a webhook's time
 * (bench/webhook-pg.ts: 73 → 81 % of the baseline's throughput on Express at 16 connections).
 *
 * Everything goes in the extended protocol before a single Sync, so PostgreSQL treats it as one
 * pipeline: an error anywhere skips the rest up to the Sync. The statement therefore never runs
 * when its BEGIN did not (queries synced one by one, as pg's own pipeline mode sends them, would run
 * it outside any transaction and commit it on its own).
 *
 * Built on pg's `Query`, which pg-cursor and pg-query-stream extend the same way: `prepare` writes
 * the opening statements' messages ahead of the statement's own. Their results come back first, and
 * the callback gets the statement's alone.
 */
import pg from 'pg';

/** The protocol writer of a pg connection, as `Query.prepare` uses it. */
interface ProtocolWriter {
  parse(query: { text: string; name?: string; types?: unknown[] }): void;
  bind(config: { portal?: string; statement?: string; values?: unknown[] }): void;
  execute(config: { portal?: string; rows?: number }): void;
  sync(): void;
}

/** The members of pg's `Query` this subclass builds on (not in its published types). */
interface QueryBase {
  name: string | undefined;
  submit(connection: ProtocolWriter): Error | null;
  prepare(connection: ProtocolWriter): void;
  requiresPreparation(): boolean;
  handleCommandComplete(message: unknown, connection: ProtocolWriter): void;
}

type Results = pg.QueryResult | pg.QueryResult[];
type Callback = (error: Error | null, results?: Results) => void;

const Query = pg.Query as unknown as new (
  config: pg.QueryConfig,
  values: undefined,
  callback: Callback,
) => QueryBase;

const NAME = Symbol('name');
const OPENING_LEFT = Symbol('openingLeft');
const SUBMITTING = Symbol('submitting');

class OpeningQuery extends Query {
  // `declare`: pg's constructor sets the name (through the setter below) before field initialisers run.
  declare [NAME]: string | undefined;
  /** Opening statements whose CommandComplete has not arrived yet. */
  [OPENING_LEFT]: number;
  [SUBMITTING] = false;

  constructor(
    private readonly opening: readonly string[],
    private readonly closing: readonly string[],
    config: pg.QueryConfig,
    callback: Callback,
  ) {
    super(config, undefined, callback);
    this[OPENING_LEFT] = opening.length;
  }

  /*
   * pg records a named statement as parsed on this connection at every ParseComplete while the
   * query is active, under the query's `name`. The opening statements are parsed unnamed, and
   * their ParseCompletes arrive first: if the name showed then, a statement whose own Parse later
   * failed would be recorded as parsed, and never parsed again on this connection. So the name
   * shows while the messages are written and once the opening statements have completed.
   */
  override get name(): string | undefined {
    return this[SUBMITTING] || this[OPENING_LEFT] === 0 ? this[NAME] : undefined;
  }
  override set name(name: string | undefined) {
    this[NAME] = name;
  }

  override submit(connection: ProtocolWriter): Error | null {
    this[SUBMITTING] = true;
    try {
      return super.submit(connection);
    } finally {
      this[SUBMITTING] = false;
    }
  }

  /** Always the extended protocol, even without parameters: a simple query would sync on its own. */
  override requiresPreparation(): boolean {
    return true;
  }

  override prepare(connection: ProtocolWriter): void {
    for (const text of this.opening) unnamed(connection, text);
    if (this.closing.length === 0) {
      super.prepare(connection);
      return;
    }
    // pg writes the statement's messages and ends them with a Sync: the closing statements go
    // just before it, through a writer that is the connection but for `sync`.
    const writer: ProtocolWriter = Object.create(connection);
    writer.sync = () => {
      for (const text of this.closing) unnamed(connection, text);
      connection.sync();
    };
    super.prepare(writer);
  }

  override handleCommandComplete(message: unknown, connection: ProtocolWriter): void {
    if (this[OPENING_LEFT] > 0) this[OPENING_LEFT]--;
    super.handleCommandComplete(message, connection);
  }
}

/** A statement without parameters or rows, parsed unnamed: Parse, Bind, Execute. */
function unnamed(connection: ProtocolWriter, text: string): void {
  connection.parse({ text, name: '', types: [] });
  connection.bind({ portal: '', statement: '', values: [] });
  connection.execute({ portal: '', rows: 0 });
}

/**
 * Runs `opening` (statements without parameters or results, e.g. `BEGIN`), `statement`, then
 * `closing` (e.g. `COMMIT`) on `client` in one exchange; resolves with the statement's result.
 * When any of it fails, nothing after the failure ran: a transaction opened before it is still
 * open (and aborted), for the caller to roll back.
 */
export function queryWithOpening(
  client: pg.ClientBase,
  opening: readonly string[],
  statement: pg.QueryConfig,
  closing: readonly string[] = [],
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new OpeningQuery(opening, closing, statement, (error, results) => {
      if (error) reject(error);
      else if (Array.isArray(results)) resolve(results[opening.length] as pg.QueryResult);
      else resolve(results as pg.QueryResult);
    });
    client.query(query as unknown as pg.Submittable);
  });
}
