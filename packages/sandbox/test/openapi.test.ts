/**
 * docs/openapi must be what the codecs generate today: a stale committed document fails here (run
 * `pnpm openapi`). The documents must also describe every route the code serves.
 */
import { readFile } from 'node:fs/promises';
import { SERVICE_ROUTES } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/routes.js';
import { openApiDocuments, openApiText } from '../src/openapi.js';

const dir = new URL('../../../docs/openapi/', import.meta.url);
const documents = openApiDocuments();

describe('docs/openapi', () => {
  it.each(Object.keys(documents))('%s is current (regenerate with pnpm openapi)', async (name) => {
    const committed = await readFile(new URL(name, dir), 'utf8').catch(() => '(missing)');
    expect(
      committed === openApiText(documents[name]!),
      `docs/openapi/${name} is stale: run pnpm openapi`,
    ).toBe(true);
  });

  it('documents every service route and every admin route', () => {
    const service = documents['service.json']!;
    for (const route of Object.values(SERVICE_ROUTES)) {
      const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
      expect(service.paths[path]?.[route.method.toLowerCase() as 'get']).toBeDefined();
    }
    const admin = documents['sandbox-admin.json']!;
    for (const [method, pattern] of ADMIN_ROUTES) {
      const path = pattern.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(admin.paths[path]?.[method.toLowerCase() as 'get'], `${method} ${pattern}`).toBeDefined();
    }
  });

  it('lists the four webhook events and only the data-sharing endpoints in data-sharing mode', () => {
    const basic = documents['market-basic.json']!;
    const sharing = documents['market-data-sharing.json']!;
    expect(Object.keys(sharing.webhooks ?? {}).sort()).toEqual([
      'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
      'BNPL_ORDER_STATUS_UPDATED',
      'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED',
      'OFFER_TRANSACTION_STATUS_UPDATED',
    ]);
    expect(basic.paths['/v1/push-claims']).toBeUndefined();
    expect(sharing.paths['/v1/push-claims']?.post?.operationId).toBe('pushClaims');
    expect(sharing.paths['/v1/orders/{id}/disburse']?.post?.operationId).toBe('disburseOrder');
  });
});
