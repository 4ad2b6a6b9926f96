import { describe, expect, it } from 'vitest';
import { createOrderRequestCodec, serviceOrderCodec } from '../src/service/routes.js';
import {
  buildServicePath,
  findServiceRoute,
  matchServicePath,
  SERVICE_OPERATIONS,
  SERVICE_ROUTES,
} from '../src/wire.js';
import { orderInput, wireServiceOrder } from './service-support.js';

describe('the route table', () => {
  it('holds every operation of WIRE §6 with its method and path', () => {
    const table = Object.fromEntries(
      SERVICE_OPERATIONS.map((op) => [op, `${SERVICE_ROUTES[op].method} ${SERVICE_ROUTES[op].path}`]),
    );
    expect(table).toEqual({
      token: 'POST /v1/token',
      createOrder: 'POST /v1/integration/bnpl-consumers/orders',
      getOrder: 'GET /v1/integration/bnpl-consumers/orders/:id',
      revertOrder: 'POST /v1/integration/bnpl-consumers/orders/:id/revert',
      disburseOrder: 'POST /v1/integration/bnpl-consumers/orders/:id/disburse',
      pushClaimTokens: 'PUT /v1/claim-providers/entities/:credify_id/claims',
      getPublicKey: 'GET /v1/entity/public-key',
      introspectToken: 'POST /v1/oauth2/introspect',
      checkAvailability: 'POST /v1/claim-providers/offers',
    });
  });

  it('marks only reads, the token and find-or-create availability as idempotent', () => {
    const idempotent = SERVICE_OPERATIONS.filter((op) => SERVICE_ROUTES[op].idempotent);
    expect(idempotent.sort()).toEqual([
      'checkAvailability',
      'getOrder',
      'getPublicKey',
      'introspectToken',
      'token',
    ]);
    expect(SERVICE_OPERATIONS.filter((op) => SERVICE_ROUTES[op].auth === 'api-key')).toEqual(['token']);
  });

  it('matches and builds paths symmetrically, with encoded parameters', () => {
    const path = buildServicePath(SERVICE_ROUTES.pushClaimTokens.path, { credify_id: 'a b/c' });
    expect(path).toBe('/v1/claim-providers/entities/a%20b%2Fc/claims');
    expect(matchServicePath(SERVICE_ROUTES.pushClaimTokens.path, path)).toEqual({ credify_id: 'a b/c' });
    expect(() => buildServicePath(SERVICE_ROUTES.getOrder.path, {})).toThrow(/id/);
  });

  it('finds the operation of a request, and tells a wrong method from an unknown path', () => {
    expect(findServiceRoute('POST', '/v1/integration/bnpl-consumers/orders/o1/disburse')).toEqual({
      operation: 'disburseOrder',
      params: { id: 'o1' },
    });
    expect(findServiceRoute('DELETE', '/v1/token')).toEqual({ pathOnly: true });
    expect(findServiceRoute('GET', '/v1/nothing')).toBeUndefined();
    expect(findServiceRoute('GET', '/v1/integration/bnpl-consumers/orders/')).toBeUndefined();
  });

  it('round-trips a service order between wire and model', () => {
    const wire = wireServiceOrder({ order_status: 'approved' });
    const model = serviceOrderCodec.schema.parse(wire);
    expect(model.orderStatus).toBe('APPROVED');
    expect(serviceOrderCodec.encode(model)).toEqual({ ...wire, order_status: 'APPROVED' });
  });

  it('applies the money rule to create-order requests', () => {
    const wire = createOrderRequestCodec.encode({ ...orderInput, paymentRecipient: undefined });
    expect(createOrderRequestCodec.schema.safeParse(wire).success).toBe(true);
    const bad = createOrderRequestCodec.schema.safeParse({
      ...wire,
      total_amount: { value: '5', currency: 'VND' },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['total_amount', 'value']);
  });
});
