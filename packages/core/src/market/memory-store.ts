/**
 * An in-memory `MarketStore` with real transaction semantics, for tests and the sandbox (exported
 * from `@bnpl-kit/core/testing` only, marked non-durable so production refuses it): one
 * transaction at a time (a mutex, which is what `SELECT … FOR UPDATE` on one row amounts to in the
 * kit's usage), writes buffered until the work resolves, and discarded when it throws.
 */
import type { OrderStatus } from '../models/status.js';
import type { MarketStore, MarketTransaction, NewStoredOrder, StatusChange, StoredOrder } from './store.js';

export interface MemoryStore extends MarketStore<MarketTransaction> {
  readonly durable: false;
  /** Committed orders, for assertions. */
  orders(): StoredOrder[];
  /** Committed processed event IDs, in processing order. */
  processedEvents(): { eventId: string; eventType: string }[];
  /** Every committed status change, in order. */
  statusChanges(): StatusChange[];
}

export interface MemoryStoreOptions {
  now?: () => Date;
}

function copy(order: StoredOrder): StoredOrder {
  return structuredClone(order);
}

interface Committed {
  orders: Map<string, StoredOrder>;
  events: Map<string, string>;
  changes: StatusChange[];
  now: () => Date;
}

/**
 * One open transaction: reads see its own writes; writes reach `Committed` only on commit. The
 * write buffers are made on first write (a webhook for an unknown order only records its event).
 */
class MemoryTransaction implements MarketTransaction {
  readonly #db: Committed;
  #statusWrites: Map<string, { status: OrderStatus; updatedAt: Date }> | undefined;
  #eventWrites: Map<string, string> | undefined;
  #changeWrites: StatusChange[] | undefined;
  #open = true;

  constructor(db: Committed) {
    this.#db = db;
  }

  #guard(): void {
    if (!this.#open) throw new Error('This transaction has already ended');
  }

  #read(id: string): StoredOrder | undefined {
    const order = this.#db.orders.get(id);
    if (!order) return undefined;
    const write = this.#statusWrites?.get(id);
    return write ? { ...copy(order), ...write } : copy(order);
  }

  // The two calls of every webhook answer without an `async` frame; failures still reject.
  getOrderForUpdate(id: string): Promise<StoredOrder | undefined> {
    try {
      this.#guard();
      return Promise.resolve(this.#read(id));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async setOrderStatus(change: StatusChange): Promise<void> {
    this.#guard();
    if (!this.#read(change.orderId)) throw new Error(`No order ${change.orderId}`);
    this.#statusWrites ??= new Map();
    this.#statusWrites.set(change.orderId, { status: change.to, updatedAt: this.#db.now() });
    this.#changeWrites ??= [];
    this.#changeWrites.push({ ...change });
  }

  markEventProcessed(eventId: string, eventType: string): Promise<boolean> {
    try {
      this.#guard();
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#db.events.has(eventId) || this.#eventWrites?.has(eventId)) return Promise.resolve(false);
    this.#eventWrites ??= new Map();
    this.#eventWrites.set(eventId, eventType);
    return Promise.resolve(true);
  }

  commit(): void {
    const db = this.#db;
    if (this.#statusWrites) {
      for (const [id, write] of this.#statusWrites) {
        const order = db.orders.get(id);
        if (order) db.orders.set(id, { ...order, ...write });
      }
    }
    if (this.#eventWrites) for (const [id, type] of this.#eventWrites) db.events.set(id, type);
    if (this.#changeWrites) db.changes.push(...this.#changeWrites);
  }

  close(): void {
    this.#open = false;
  }
}

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const now = options.now ?? (() => new Date());
  const db: Committed = { orders: new Map(), events: new Map(), changes: [], now };
  const { orders, events, changes } = db;
  const byReference = new Map<string, string>();
  // One transaction at a time: the rest wait here, in order.
  const waiting: (() => void)[] = [];
  let busy = false;
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  };

  /** Runs `work` holding the mutex; a promise chain, not an `async` frame: every webhook runs one. */
  function exclusively<T>(work: (tx: MarketTransaction) => Promise<T>): Promise<T> {
    const tx = new MemoryTransaction(db);
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(work(tx));
    } catch (error) {
      end(tx);
      return Promise.reject(error);
    }
    return pending.then(
      (result) => {
        try {
          tx.commit();
        } finally {
          end(tx);
        }
        return result;
      },
      (error: unknown) => {
        end(tx);
        throw error;
      },
    );
  }

  /** The next transaction starts whatever the outcome of this one. */
  function end(tx: MemoryTransaction): void {
    tx.close();
    release();
  }

  return {
    // Everything lives in this process: createMarket refuses it in production.
    durable: false,
    async findOrderById(id) {
      const order = orders.get(id);
      return order && copy(order);
    },
    async findOrderByReferenceId(referenceId) {
      const id = byReference.get(referenceId);
      const order = id === undefined ? undefined : orders.get(id);
      return order && copy(order);
    },
    async insertOrder(input: NewStoredOrder) {
      const existingId = byReference.get(input.referenceId);
      const existing = existingId === undefined ? undefined : orders.get(existingId);
      if (existing) return { order: copy(existing), created: false };
      if (orders.has(input.id)) throw new Error(`Order ${input.id} already exists with another reference ID`);
      const at = now();
      const order: StoredOrder = { ...structuredClone(input), createdAt: at, updatedAt: at };
      orders.set(order.id, order);
      byReference.set(order.referenceId, order.id);
      return { order: copy(order), created: true };
    },
    transaction<T>(work: (tx: MarketTransaction) => Promise<T>): Promise<T> {
      if (!busy) {
        busy = true;
        return exclusively(work);
      }
      return new Promise<void>((resolve) => waiting.push(resolve)).then(() => exclusively(work));
    },
    orders: () => [...orders.values()].map(copy),
    processedEvents: () => [...events].map(([eventId, eventType]) => ({ eventId, eventType })),
    statusChanges: () => changes.map((c) => ({ ...c })),
  };
}
