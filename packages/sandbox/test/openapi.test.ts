/**
 * The generated documents describe every route the code serves (their committed copies are checked
 * against the generator in docs/test/openapi.test.ts).
 */
import { SERVICE_ROUTES } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/routes.js';
import { openApiDocuments } from '../src/openapi.js';

const documents = openApiDocuments();

describe('OpenAPI documents', () => {
  it('document every service route and every admin route', () => {
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

  it('list the four webhook events, and the data-sharing endpoints only in data-sharing mode', () => {
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
