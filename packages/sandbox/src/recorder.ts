/**
 * Every request the sandbox handled, in order: the spy tests assert on ("one token request for ten
 * concurrent calls", "the disburse carried `Idempotency-Key: disburse:…`"). Credentials are never
 * recorded, only whether they were present.
 */
import type { ServiceOperation } from '@bnpl-kit/core/wire';

export interface RecordedCall {
  id: number;
  at: number;
  kind: 'service' | 'admin' | 'page' | 'unknown';
  operation: ServiceOperation | undefined;
  method: string;
  path: string;
  query: string;
  status: number;
  idempotencyKey: string | undefined;
  hadApiKey: boolean;
  hadBearer: boolean;
  /** The request body as text (admin and service bodies carry no secrets). */
  body: string | undefined;
  /** Set when an injected fault answered instead of the operation. */
  fault: string | undefined;
  /**
   * The answer's body (first 1000 characters) when the sandbox refused a service call (status >= 400),
   * so a certification report can show the service's reason next to the market's failure.
   */
  responseBody?: string | undefined;
}

export interface CallFilter {
  operation?: ServiceOperation;
  kind?: RecordedCall['kind'];
  /** Only calls recorded after the one with this id. */
  after?: number;
}

export class CallRecorder {
  #calls: RecordedCall[] = [];
  #nextId = 1;
  readonly #limit: number;

  constructor(limit = 10_000) {
    this.#limit = limit;
  }

  record(call: Omit<RecordedCall, 'id'>): RecordedCall {
    const recorded = { id: this.#nextId++, ...call };
    this.#calls.push(recorded);
    // A long-running standalone sandbox keeps the most recent calls only.
    if (this.#calls.length > this.#limit) this.#calls.splice(0, this.#calls.length - this.#limit);
    return recorded;
  }

  list(filter: CallFilter = {}): RecordedCall[] {
    // Ids grow with the list: the calls after an id are a tail, found without reading the rest.
    const after = filter.after;
    let from = 0;
    if (after !== undefined) {
      from = this.#calls.length;
      while (from > 0 && this.#calls[from - 1]!.id > after) from--;
    }
    return this.#calls
      .slice(from)
      .filter(
        (c) =>
          (filter.operation === undefined || c.operation === filter.operation) &&
          (filter.kind === undefined || c.kind === filter.kind),
      );
  }

  count(operation: ServiceOperation): number {
    return this.list({ operation }).length;
  }

  last(operation?: ServiceOperation): RecordedCall | undefined {
    return (operation === undefined ? this.#calls : this.list({ operation })).at(-1);
  }

  clear(): void {
    this.#calls = [];
  }
}
