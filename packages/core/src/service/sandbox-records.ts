/**
 * Where a persistent sandbox service keeps its records: the contract between `@bnpl-kit/sandbox`
 * (which serializes its state into records) and `@bnpl-kit/store` (whose `sandboxRecords(store,
 * namespace)` keeps them in PGlite or PostgreSQL). It lives here so that neither package depends
 * on the other, and the sandbox never imports a database driver. Anything with the same two
 * methods will do.
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
