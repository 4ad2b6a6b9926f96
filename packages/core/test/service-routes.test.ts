import { describe, expect, it } from 'vitest';
import { orderCreateRequestSchema } from '../src/models/order.js';
import {
  createOrderRequestCodec,
  SERVICE_ROUTES as ROUTES,
  serviceOrderCodec,
} from '../src/service/routes.js';
import {
  buildServicePath,
  type Route,
  Router,
  SERVICE_OPERATIONS,
  SERVICE_ROUTES,
  type ServiceOperation,
} from '../src/wire.js';
import { orderInput, wireServiceOrder } from './service-support.js';

// The sandbox serves the table through core's Router; the same build, with the operation as handler.
const serviceRouter = new Router<ServiceOperation>(
  SERVICE_OPERATIONS.map(
    (op): Route<ServiceOperation> => ({
      name: op,
      method: SERVICE_ROUTES[op].method,
      path: SERVICE_ROUTES[op].path,
      handler: op,
    }),
  ),
  '',
);

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
    expect(serviceRouter.match('PUT', path)).toMatchObject({
      kind: 'found',
      route: { handler: 'pushClaimTokens' },
      params: { credify_id: 'a b/c' },
    });
    expect(() => buildServicePath(SERVICE_ROUTES.getOrder.path, {})).toThrow(/id/);
  });

  it('routes every operation of the table to itself', () => {
    for (const op of SERVICE_OPERATIONS) {
      const path = buildServicePath(SERVICE_ROUTES[op].path, { id: 'o1', credify_id: 'u1' });
      const match = serviceRouter.match(SERVICE_ROUTES[op].method, path);
      expect(match.kind === 'found' && match.route.handler).toBe(op);
    }
  });

  it('finds the operation of a request, and tells a wrong method from an unknown path', () => {
    expect(serviceRouter.match('POST', '/v1/integration/bnpl-consumers/orders/o1/disburse')).toMatchObject({
      kind: 'found',
      route: { handler: 'disburseOrder' },
      params: { id: 'o1' },
    });
    expect(serviceRouter.match('DELETE', '/v1/token')).toEqual({ kind: 'wrong_method', allow: ['POST'] });
    expect(serviceRouter.match('DELETE', '/v1/integration/bnpl-consumers/orders/o1')).toEqual({
      kind: 'wrong_method',
      allow: ['GET'],
    });
    expect(serviceRouter.match('GET', '/v1/nothing')).toEqual({ kind: 'none' });
  });

  it('answers a trailing slash or an empty parameter as an unknown path', () => {
    expect(serviceRouter.match('GET', '/v1/integration/bnpl-consumers/orders/')).toEqual({ kind: 'none' });
    expect(serviceRouter.match('POST', '/v1/token/')).toEqual({ kind: 'none' });
    expect(serviceRouter.match('GET', '/v1/integration/bnpl-consumers/orders/o1/')).toEqual({ kind: 'none' });
    expect(serviceRouter.match('PUT', '/v1/claim-providers/entities//claims')).toEqual({ kind: 'none' });
  });

  it('leaves a parameter that is not valid percent-encoding unmatched', () => {
    expect(serviceRouter.match('GET', '/v1/integration/bnpl-consumers/orders/%E0%A4%A')).toEqual({
      kind: 'none',
    });
  });

  it('round-trips a service order between wire and model', () => {
    const wire = wireServiceOrder({ order_status: 'approved' });
    const model = serviceOrderCodec.schema.parse(wire);
    expect(model.orderStatus).toBe('APPROVED');
    expect(serviceOrderCodec.encode(model)).toEqual({ ...wire, order_status: 'APPROVED' });
  });

  it.each(['undefined', 'null', 'NaN'])(
    'refuses an ID the market would store that is the text of a missing value (%j)',
    (text) => {
      expect(serviceOrderCodec.schema.safeParse(wireServiceOrder({ id: text })).success).toBe(false);
      const availability = ROUTES.checkAvailability.response;
      expect(availability.schema.safeParse({ offers: [], credify_id: text }).success).toBe(false);
      expect(availability.schema.safeParse({ offers: [], credify_id: 'crf_1' }).success).toBe(true);
    },
  );

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

describe('the service’s create-order body and the market’s share one totals rule', () => {
  const line = (unit: string, currency = 'VND', unitCurrency = currency) => ({
    name: 'Tea',
    reference_id: 'l1',
    image_url: 'https://shop.example/t.png',
    product_url: 'https://shop.example/t',
    quantity: 1,
    unit_price: { value: unit, currency: unitCurrency },
    subtotal: { value: unit, currency },
    measment_unit: 'EACH',
  });
  const order = (total: string, lines: unknown[]) => ({
    reference_id: 'r1',
    total_amount: { value: total, currency: 'VND' },
    order_lines: lines,
  });
  const cases: [string, unknown][] = [
    ['a total of 0', order('0', [line('0')])],
    ['a unit price in another currency', order('100', [line('100', 'VND', 'USD')])],
    ['a total that is not the sum of the lines', order('150', [line('100')])],
  ];

  it.each(cases)('both refuse %s with the same issues', (_what, body) => {
    const service = createOrderRequestCodec.schema.safeParse(body);
    const market = orderCreateRequestSchema.safeParse(body);
    expect(service.success).toBe(false);
    expect(market.success).toBe(false);
    expect(service.error!.issues.map((i) => [i.path, i.message])).toEqual(
      market.error!.issues.map((i) => [i.path, i.message]),
    );
  });

  it('both accept an order whose total is the sum of its lines', () => {
    const body = order('100', [line('100')]);
    expect(createOrderRequestCodec.schema.safeParse(body).success).toBe(true);
    expect(orderCreateRequestSchema.safeParse(body).success).toBe(true);
  });
});
