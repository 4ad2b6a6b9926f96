/**
 * Readiness for a load balancer: 200 once the store answers with every migration applied and the
 * worker runs; 503 while starting, when the database is down, and from SIGTERM on (the drain).
 */
import { consoleLogger } from '@bnpl-kit/core';
import { readinessResponse } from '@bnpl-kit/store/worker';
import { drain, runtime } from '../../lib/market';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  if (drain.draining) return readinessResponse({ store: notAsked, drain });
  try {
    const { store, worker } = await runtime();
    return await readinessResponse({ store, worker, drain });
  } catch (error) {
    // Not started: the database is unreachable, or the configuration is invalid.
    consoleLogger.error({ err: error }, 'the market could not start');
    return Response.json({ status: 'not_ready' }, { status: 503, headers: { 'cache-control': 'no-store' } });
  }
}

/** While draining readiness answers without asking the store. */
const notAsked = { ping: async () => false, migrationsApplied: async () => false };
