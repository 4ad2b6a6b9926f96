/**
 * An in-memory `MarketStore` with real transaction semantics, for tests and the sandbox: one
 * transaction at a time (a mutex, which is what `SELECT … FOR UPDATE` on one row amounts to in the
 * kit's usage), writes buffered until the work resolves, and discarded when it throws.
 */
import type { OrderStatus } from '../models/status.js';
import type { MarketStore, MarketTransaction, NewStoredOrder, StatusChange, StoredOrder } from './store.js';

export interface MemoryStore extends MarketStore<MarketTransaction> {
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

/** One open transaction: reads see its own writes; writes reach `Committed` only on commit. */
class MemoryTransaction implements MarketTransaction {
  readonly #db: Committed;
  readonly #statusWrites = new Map<string, { status: OrderStatus; updatedAt: Date }>();
  readonly #eventWrites = new Map<string, string>();
  readonly #changeWrites: StatusChange[] = [];
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
    const write = this.#statusWrites.get(id);
    return write ? { ...copy(order), ...write } : copy(order);
  }

  async getOrderForUpdate(id: string): Promise<StoredOrder | undefined> {
    this.#guard();
    return this.#read(id);
  }

  async setOrderStatus(change: StatusChange): Promise<void> {
    this.#guard();
    if (!this.#read(change.orderId)) throw new Error(`No order ${change.orderId}`);
    this.#statusWrites.set(change.orderId, { status: change.to, updatedAt: this.#db.now() });
    this.#changeWrites.push({ ...change });
  }

  async markEventProcessed(eventId: string, eventType: string): Promise<boolean> {
    this.#guard();
    if (this.#db.events.has(eventId) || this.#eventWrites.has(eventId)) return false;
    this.#eventWrites.set(eventId, eventType);
    return true;
  }

  commit(): void {
    const db = this.#db;
    for (const [id, write] of this.#statusWrites) {
      const order = db.orders.get(id);
      if (order) db.orders.set(id, { ...order, ...write });
    }
    for (const [id, type] of this.#eventWrites) db.events.set(id, type);
    db.changes.push(...this.#changeWrites);
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

  async function run<T>(work: (tx: MarketTransaction) => Promise<T>): Promise<T> {
    const tx = new MemoryTransaction(db);
    try {
      const result = await work(tx);
      tx.commit();
      return result;
    } finally {
      tx.close();
    }
  }

  return {
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
    async transaction<T>(work: (tx: MarketTransaction) => Promise<T>): Promise<T> {
      if (busy) await new Promise<void>((resolve) => waiting.push(resolve));
      else busy = true;
      try {
        return await run(work);
      } finally {
        // The next transaction starts whatever the outcome of this one.
        release();
      }
    },
    orders: () => [...orders.values()].map(copy),
    processedEvents: () => [...events].map(([eventId, eventType]) => ({ eventId, eventType })),
    statusChanges: () => changes.map((c) => ({ ...c })),
  };
}
