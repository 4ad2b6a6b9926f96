/**
 * Issue 20 §4 on the reference servers: DATA_DIR on a file system that fills up. The embedded
 * sandbox keeps its records in the same PGlite database, so an order that the sandbox cannot store
 * is the market's own disk failing, not the service: `503 store_unavailable` (never a 502 blaming
 * the service, never a 500), `/readyz` not ready while the disk has no room, and the same orders
 * created once space frees, none left at the service without a row in the market.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { orderRequest } from '../src/testing/index.js';
import { http } from './helpers/market-client.js';
import { startTestServer } from './helpers/servers.js';
import { mountSmallDisk, smallDiskAvailable } from './helpers/small-disk.js';

describe.runIf(smallDiskAvailable).each(['hono', 'express', 'koa'] as const)(
  'a %s reference server whose data directory fills up',
  (framework) => {
    it('answers 503 store_unavailable, is not ready, and recovers when space frees', async () => {
      const disk = mountSmallDisk(64)!;
      const server = await startTestServer({
        mode: 'basic',
        framework,
        dataDir: disk.dir,
        extra: { storeOptions: {} },
      }).catch((err: unknown) => {
        disk.unmount();
        throw err;
      });
      // The server first: the database files must be closed before the file system goes.
      onTestFinished(async () => {
        await server.close();
        disk.unmount();
      });
      const token = server.marketApiToken.reveal();
      const create = (referenceId: string) =>
        http(`${server.url}/v1/orders`, { json: orderRequest(referenceId), token });

      expect((await create('before-full')).status).toBe(201);
      expect((await http(`${server.url}/readyz`)).status).toBe(200);

      disk.fill(256 * 1024);
      expect((await http(`${server.url}/readyz`)).status).toBe(503);
      // Orders until the disk refuses one, and 20 more: each writes the market's row and the
      // sandbox's records, and either may be the write that finds no room.
      const answers: { referenceId: string; status: number; code: unknown }[] = [];
      for (let n = 0, after = 0; n < 400 && after < 20; n++) {
        const referenceId = `full-${n}`;
        const answer = await create(referenceId);
        answers.push({ referenceId, status: answer.status, code: answer.body.code });
        if (answers.some((a) => a.status !== 201)) after++;
      }
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused) expect(a).toMatchObject({ status: 503, code: 'store_unavailable' });
      expect((await http(`${server.url}/readyz`)).status).toBe(503);

      await disk.free();
      expect((await http(`${server.url}/readyz`)).status).toBe(200);
      // The refused orders, sent again with their reference IDs, are created once each.
      for (const { referenceId } of refused) expect((await create(referenceId)).status).toBe(201);
      expect((await create('after-full')).status).toBe(201);
      // Nothing the service holds lacks its row in the market.
      for (const order of server.embedded!.sandbox.orders.list()) {
        expect(await server.store.findOrderById(order.id)).not.toBeNull();
      }
    });
  },
);
