/**
 * Writes what changed in the sandbox's state since the last write, as one batch (one transaction).
 * Changes are found by comparing each record's JSON with what was last written, so no code that
 * mutates the state has to report it; a failed write leaves its records different from the written
 * copy, so the next flush writes them again. Flushes run one at a time, in call order, and each
 * one looks at the state when it starts: a caller that awaits `flush()` knows its changes are stored.
 */
import { recordKey } from './records.js';
import type { SandboxRecord, SandboxRecordChange, SandboxRecordStore } from './types.js';

export class StatePersister {
  readonly #snapshot: () => SandboxRecord[];
  readonly #store: SandboxRecordStore;
  /** Record key → the JSON text last written. */
  readonly #written = new Map<string, { kind: string; id: string; json: string }>();
  #queue: Promise<void> = Promise.resolve();

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
    const run = this.#queue.then(() => this.#write());
    // The queue continues after a failure; the caller of this flush still sees it.
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(): Promise<void> {
    const current = new Map<string, { kind: string; id: string; json: string }>();
    for (const r of this.#snapshot()) {
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
