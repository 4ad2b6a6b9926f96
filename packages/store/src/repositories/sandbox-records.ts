/**
 * The embedded sandbox service's records (migration 0002), for `@bnpl-kit/sandbox`'s persistence:
 * load every record of one sandbox, and write a batch of changes in one transaction, so a request
 * that changed three records leaves either all three or none behind. It is core's
 * `SandboxRecordStore`, the contract the sandbox persists through, so neither package depends on
 * the other.
 */
import type { SandboxRecordStore } from '@bnpl-kit/core/wire';
import type { Store } from '../store.js';

export interface SandboxRecordRepository extends SandboxRecordStore {
  /** Where the records live, safe to log. */
  readonly location: string;
}

/** `namespace` keeps sandboxes that share one database apart (e.g. one per organisation). */
export function sandboxRecords(store: Store, namespace: string): SandboxRecordRepository {
  return {
    location: store.location,
    async load() {
      const { rows } = await store.query<{ kind: string; id: string; body: unknown }>(
        'SELECT kind, id, body FROM bnpl_sandbox_records WHERE namespace = $1 ORDER BY kind, id',
        [namespace],
      );
      return rows;
    },
    async save(changes) {
      if (changes.length === 0) return;
      // Two statements whatever the batch size: the rows travel as one JSON array.
      const upserts = changes
        .filter((c) => c.body !== null)
        .map((c) => ({ kind: c.kind, id: c.id, body: c.body }));
      const deletes = changes.filter((c) => c.body === null).map((c) => ({ kind: c.kind, id: c.id }));
      const upsertJson = upserts.length > 0 ? JSON.stringify(upserts) : undefined;
      await store.transaction(async (tx) => {
        if (upsertJson !== undefined) {
          await tx.query(
            `INSERT INTO bnpl_sandbox_records (namespace, kind, id, body)
             SELECT $1, r.kind, r.id, r.body FROM jsonb_to_recordset($2::jsonb) AS r(kind text, id text, body jsonb)
             ON CONFLICT (namespace, kind, id) DO UPDATE SET body = EXCLUDED.body, updated_at = now()`,
            [namespace, upsertJson],
          );
        }
        if (deletes.length > 0) {
          await tx.query(
            `DELETE FROM bnpl_sandbox_records t USING jsonb_to_recordset($2::jsonb) AS r(kind text, id text)
             WHERE t.namespace = $1 AND t.kind = r.kind AND t.id = r.id`,
            [namespace, JSON.stringify(deletes)],
          );
        }
      });
    },
  };
}
