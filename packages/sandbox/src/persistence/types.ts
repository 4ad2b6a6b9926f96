/**
 * Where a persistent sandbox keeps its records. `@bnpl-kit/store`'s `sandboxRecords(store, namespace)`
 * is one (PGlite or PostgreSQL); anything with the same two methods will do. The sandbox itself
 * never imports a database driver, so in-memory use (tests, msw) stays as light as before.
 */

/** One record as the sandbox serializes it. */
export interface SandboxRecord {
  kind: string;
  id: string;
  body: unknown;
}

/** A change to write; `body: null` deletes the record. */
export interface SandboxRecordChange {
  kind: string;
  id: string;
  body: unknown | null;
}

export interface SandboxRecordStore {
  load(): Promise<SandboxRecord[]>;
  /** Writes every change of the batch, or none of them (one transaction). */
  save(changes: readonly SandboxRecordChange[]): Promise<void>;
}
