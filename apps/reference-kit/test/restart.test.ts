/**
 * A restart keeps the data: the orders, the users' service IDs and commitments in the database
 * (a PGlite directory, or PostgreSQL), and the generated sandbox keys in the key file, so the same
 * organisation, tokens and sessions work after the restart. The embedded sandbox keeps its records
 * in the same database, so the service still knows the orders the market's rows point at.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BACKENDS, dropSchema, freshSchema, orderRequest, TEST_DATABASE_URL } from '../src/testing/index.js';
import { http, marketClient, sandboxAdmin } from './helpers/market-client.js';
import { removeDir, startTestServer, tempDir } from './helpers/servers.js';

describe.each(BACKENDS)('restart (%s)', (backend) => {
  it('keeps orders, users, commitments and keys', async () => {
    const dataDir = await tempDir();
    onTestFinished(() => removeDir(dataDir));
    const schema = freshSchema();
    if (backend === 'postgres') onTestFinished(() => dropSchema(schema));
    const start = () =>
      startTestServer({
        mode: 'data-sharing',
        dataDir,
        env: backend === 'postgres' ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema } : {},
        // A real directory, not memory: persistence is the point here.
        extra: { storeOptions: {} },
      });

    const first = await start();
    let orderId: string;
    let credifyId: string;
    let session: string;
    try {
      expect(first.keys!.generatedExports.map((line) => line.split('=')[0])).toEqual([
        'export APP_ID',
        'export APP_API_KEY',
        'export MARKET_API_TOKEN',
        'export APP_SIGNING_KEY',
      ]);
      expect((await stat(join(dataDir, 'keys.json'))).mode & 0o777).toBe(0o600);
      if (backend === 'pglite') expect(first.store.location).toBe(join(dataDir, 'pglite'));
      const demo = await http(`${first.url}/v1/demo-user`);
      session = String(demo.body.session_token);
      const availability = await sandboxAdmin(first.embedded!.serviceUrl).availability(
        first.keys!.appApiKey.reveal(),
        'user-an',
      );
      credifyId = availability.credifyId;
      const pushed = await http(`${first.url}/v1/push-claims`, {
        json: { id: 'user-an', credify_id: credifyId },
        token: session,
      });
      expect(pushed.status).toBe(200);
      orderId = await marketClient(first.url, first.marketApiToken.reveal()).createOrder('restart-1');
      await sandboxAdmin(first.embedded!.serviceUrl).act(orderId, 'approve', { credify_id: credifyId });
    } finally {
      await first.close();
    }

    const second = await start();
    try {
      expect(second.keys!.generatedExports).toEqual([]);
      expect(second.appId).toBe(first.appId);
      expect(second.marketApiToken.reveal()).toBe(first.marketApiToken.reveal());
      expect(await second.store.findOrderById(orderId)).toMatchObject({ referenceId: 'restart-1' });
      // The service side survived too: the order, its approval and the service user.
      expect(second.embedded!.sandbox.orders.get(orderId)).toMatchObject({
        referenceId: 'restart-1',
        status: 'APPROVED',
        credifyId,
      });
      const lookup = await http(`${second.url}/v1/orders/service/${orderId}`, {
        token: second.marketApiToken.reveal(),
      });
      expect(lookup).toMatchObject({ status: 200, body: { id: orderId, status: 'APPROVED' } });
      expect((await second.store.findUserById('user-an'))?.credifyId).toBe(credifyId);
      const demo = await http(`${second.url}/v1/demo-user`);
      expect(demo.body.session_token).toBe(session);
      const claims = demo.body.claims as Record<string, Record<string, unknown>>;
      expect(claims[`${second.appId}:loyalty`]?.[`${second.appId}:loyalty:commitment`]).toMatch(
        /^[\w-]{43}$/,
      );
      // The same token still authenticates the market's systems against the stored order.
      const again = await http(`${second.url}/v1/orders`, {
        json: orderRequest('restart-1'),
        token: second.marketApiToken.reveal(),
      });
      expect(again).toMatchObject({ status: 200, body: { id: orderId } });
      expect((await http(`${second.url}/readyz`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
