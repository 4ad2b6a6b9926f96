/**
 * Writes what changed in the sandbox's state since the last write, as one batch (one transaction).
 * Changes are found by comparing each record's JSON with what was last written, so no code that
 * mutates the state has to report it; a failed write leaves its records different from the written
 * copy, so the next flush writes them again. Flushes run one at a time, in call order, and each
 * one looks at the state when it starts: a caller that awaits `flush()` knows its changes are stored.
 *
 * Comparing costs a JSON text per record, so it grows with everything the sandbox holds: under
 * sustained load on the embedded sandbox it was most of the process's CPU and held the event loop
 * for seconds at a time. Two bounds: callers that find a write queued and not yet started share it
 * (it will see their changes, made before they called), so a burst of requests costs one
 * comparison instead of one each; and the comparison yields to the event loop every
 * `RECORDS_PER_TURN` records, so no turn of it takes longer than that many records.
 */
import { recordKey } from './records.js';
import type { SandboxRecord, SandboxRecordChange, SandboxRecordStore } from './types.js';

/** Records compared per turn of the event loop (a few milliseconds of JSON at most). */
export const RECORDS_PER_TURN = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class StatePersister {
  readonly #snapshot: () => SandboxRecord[];
  readonly #store: SandboxRecordStore;
  /** Record key → the JSON text last written. */
  readonly #written = new Map<string, { kind: string; id: string; json: string }>();
  #queue: Promise<void> = Promise.resolve();
  /** The write queued behind the running one, not started yet: later callers join it. */
  #pending: Promise<void> | undefined;

  /** `snapshot` lists every record as it is now. */
  constructor(snapshot: () => SandboxRecord[], store: SandboxRecordStore) {
    this.#snapshot = snapshot;
    this.#store = store;
  }

  /** Records that were loaded count as written. */
  markWritten(records: readonly SandboxRecord[]): void {
    for (const r of records) {
      this.#written.set(recordKey(r.kind, r.id), { kind: r.kind, id: r.id, json: JSON.stringify(r.body) });
    }
  }

  flush(): Promise<void> {
    if (this.#pending !== undefined) return this.#pending;
    const run = this.#queue.then(() => {
      // From here on the state is read: a change made after this needs the next write.
      this.#pending = undefined;
      return this.#write();
    });
    this.#pending = run;
    // The queue continues after a failure; the caller of this flush still sees it.
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(): Promise<void> {
    const current = new Map<string, { kind: string; id: string; json: string }>();
    const records = this.#snapshot();
    for (let i = 0; i < records.length; i++) {
      // A record changed while this write yields is still compared after it (or by the next
      // write, which its change's flush() is queued for): none is lost either way.
      if (i > 0 && i % RECORDS_PER_TURN === 0) await nextTurn();
      const r = records[i]!;
      current.set(recordKey(r.kind, r.id), { kind: r.kind, id: r.id, json: JSON.stringify(r.body) });
    }
    const changes: SandboxRecordChange[] = [];
    const changed: [string, { kind: string; id: string; json: string } | undefined][] = [];
    for (const [key, record] of current) {
      if (this.#written.get(key)?.json === record.json) continue;
      changes.push({ kind: record.kind, id: record.id, body: JSON.parse(record.json) as unknown });
      changed.push([key, record]);
    }
    for (const [key, record] of this.#written) {
      if (current.has(key)) continue;
      changes.push({ kind: record.kind, id: record.id, body: null });
      changed.push([key, undefined]);
    }
    if (changes.length === 0) return;
    await this.#store.save(changes);
    for (const [key, record] of changed) {
      if (record) this.#written.set(key, record);
      else this.#written.delete(key);
    }
  }
}
