/**
 * The databases the tests run on: PGlite always, and the real PostgreSQL named by TEST_DATABASE_URL
 * when it is set (`.ci/run` sets it when one answers on 127.0.0.1:5432). On PostgreSQL every test
 * gets a fresh schema, dropped afterwards, so runs never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { openStore } from '@bnpl-kit/store';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export type BackendName = 'pglite' | 'postgres';
export const BACKENDS: BackendName[] = ['pglite', ...(TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export function freshSchema(): string {
  return `bnpl_ref_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const admin = await openStore({ databaseUrl: TEST_DATABASE_URL, migrate: false, poolSize: 1 });
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.close();
  }
}
