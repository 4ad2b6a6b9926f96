import { afterEach, describe, expect, it, vi } from 'vitest';
import { BnplSdkError, type BnplUser } from '../src/index.js';
import { makeSdk, SERVICE_URL, user } from './helpers.js';

type Route = (init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => json(200, { success: true, data });
const tokenOk = () => ok({ access_token: 'tok-1', expires_in: 3600 });

/** A fake fetch answering per path, recording every call. */
function fakeService(routes: Record<string, Route | Route[]>) {
  const calls: Array<{ path: string; init: RequestInit }> = [];
  const counters = new Map<string, number>();
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    expect(url.startsWith(SERVICE_URL)).toBe(true);
    const path = url.slice(SERVICE_URL.length);
    calls.push({ path, init });
    const route = routes[path];
    if (!route) return json(404, { success: false, errors: [{ code: 'not_found', message: path }] });
    const n = counters.get(path) ?? 0;
    counters.set(path, n + 1);
    const handler = Array.isArray(route) ? route[Math.min(n, route.length - 1)]! : route;
    return handler(init);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const header = (init: RequestInit, name: string) => new Headers(init.headers).get(name);

async function failure(promise: Promise<unknown>): Promise<BnplSdkError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BnplSdkError);
  return error as BnplSdkError;
}

describe('getBNPLAvailability', () => {
  afterEach(() => vi.useRealTimers());

  it('gets a token with the API key, then asks for consumerBNPL offers', async () => {
    const service = fakeService({
      '/v1/token': () => tokenOk(),
      '/v1/claim-providers/offers': () => ok({ offers: [{ code: 'bnpl-basic' }], credify_id: 'cred-77' }),
    });
    const sdk = makeSdk({ fetch: service.fetch });
    const result = await sdk.bnpl.getBNPLAvailability({ ...user, credifyId: undefined, email: 'a@b.c' });

    expect(result).toEqual({ isAvailable: true, credifyId: 'cred-77' });
    const [token, offers] = service.calls;
    expect(token?.init.method).toBe('POST');
    expect(header(token!.init, 'X-API-KEY')).toBe('key-123');
    expect(offers?.init.method).toBe('POST');
    expect(header(offers!.init, 'Authorization')).toBe('Bearer tok-1');
    expect(header(offers!.init, 'Content-Type')).toBe('application/json');
    expect(header(offers!.init, 'X-API-KEY')).toBeNull();
    expect(JSON.parse(String(offers!.init.body))).toEqual({
      local_id: 'u-1',
      phone_number: '0900000000',
      country_code: '+84',
      product_types: ['consumerBNPL'],
    });
  });

  it('sends the known credify_id and reports no offers as unavailable', async () => {
    const service = fakeService({
      '/v1/token': () => tokenOk(),
      '/v1/claim-providers/offers': () => ok({ offers: [], credify_id: 'cred-1' }),
    });
    const sdk = makeSdk({ fetch: service.fetch });
    expect(await sdk.bnpl.getBNPLAvailability(user)).toEqual({ isAvailable: false, credifyId: 'cred-1' });
    expect(JSON.parse(String(service.calls[1]!.init.body)).credify_id).toBe('cred-1');
  });

  it('reuses the token until 60 s before it expires, with one token request for concurrent calls', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z'), toFake: ['Date'] });
    const service = fakeService({
      '/v1/token': () => ok({ access_token: 'tok', expires_in: 120 }),
      '/v1/claim-providers/offers': () => ok({ offers: [], credify_id: 'cred-1' }),
    });
    const sdk = makeSdk({ fetch: service.fetch });
    await Promise.all([sdk.bnpl.getBNPLAvailability(user), sdk.bnpl.getBNPLAvailability(user)]);
    vi.setSystemTime(new Date('2030-01-01T00:00:59Z'));
    await sdk.bnpl.getBNPLAvailability(user);
    expect(service.calls.filter((c) => c.path === '/v1/token')).toHaveLength(1);
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    await sdk.bnpl.getBNPLAvailability(user);
    expect(service.calls.filter((c) => c.path === '/v1/token')).toHaveLength(2);
  });

  it('fetches a fresh token once when the offers call answers 401', async () => {
    const service = fakeService({
      '/v1/token': [
        () => ok({ access_token: 'old', expires_in: 3600 }),
        () => ok({ access_token: 'new', expires_in: 3600 }),
      ],
      '/v1/claim-providers/offers': [
        () => json(401, { success: false }),
        () => ok({ offers: [{}], credify_id: 'c' }),
      ],
    });
    const sdk = makeSdk({ fetch: service.fetch });
    expect(await sdk.bnpl.getBNPLAvailability(user)).toEqual({ isAvailable: true, credifyId: 'c' });
    expect(service.calls.map((c) => c.path)).toEqual([
      '/v1/token',
      '/v1/claim-providers/offers',
      '/v1/token',
      '/v1/claim-providers/offers',
    ]);
    expect(header(service.calls[3]!.init, 'Authorization')).toBe('Bearer new');
  });

  it('is unauthorized when the API key is refused', async () => {
    const service = fakeService({
      '/v1/token': () => json(401, { success: false, errors: [{ code: 'invalid_api_key', message: 'no' }] }),
    });
    const error = await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user));
    expect(error.code).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toContain('invalid_api_key');
    expect(error.message).not.toContain('key-123');
  });

  it('is unauthorized when a fresh token is refused too', async () => {
    const service = fakeService({
      '/v1/token': () => tokenOk(),
      '/v1/claim-providers/offers': () => json(403, { success: false }),
    });
    expect((await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user))).code).toBe(
      'unauthorized',
    );
  });

  it('is a network error when the service cannot be reached', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await failure(makeSdk({ fetch }).bnpl.getBNPLAvailability(user));
    expect(error.code).toBe('network');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('times out when the service does not answer', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = makeSdk({ fetch, timeoutMs: 1000 }).bnpl.getBNPLAvailability(user);
    const outcome = failure(pending);
    await vi.advanceTimersByTimeAsync(1000);
    expect((await outcome).code).toBe('timeout');
  });

  it.each([
    ['a body that is not JSON', () => new Response('<html>hello</html>', { status: 200 })],
    ['a body without the envelope', () => json(200, { offers: [] })],
    ['data without an offers list', () => ok({ offers: 'none', credify_id: 'c' })],
    ['offers without a credify_id', () => ok({ offers: [{}] })],
    ['a credify_id that is not a string', () => ok({ offers: [], credify_id: 42 })],
  ])('is an invalid response for %s', async (_name, offers) => {
    const service = fakeService({ '/v1/token': () => tokenOk(), '/v1/claim-providers/offers': offers });
    expect((await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user))).code).toBe(
      'invalid_response',
    );
  });

  it('is an invalid response when the token answer has no token', async () => {
    const service = fakeService({ '/v1/token': () => ok({ expires_in: 60 }) });
    expect((await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user))).code).toBe(
      'invalid_response',
    );
  });

  it('reports no offers and no id as unavailable without an id', async () => {
    const service = fakeService({
      '/v1/token': () => tokenOk(),
      '/v1/claim-providers/offers': () => ok({ offers: [] }),
    });
    expect(await makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user)).toEqual({
      isAvailable: false,
      credifyId: null,
    });
  });

  it.each([
    [503, 'unavailable'],
    [429, 'unavailable'],
    [400, 'rejected'],
  ])('maps status %i to %s', async (status, code) => {
    const service = fakeService({
      '/v1/token': () => tokenOk(),
      '/v1/claim-providers/offers': () =>
        json(status, { success: false, errors: [{ code: 'x', message: 'y' }] }),
    });
    const error = await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user));
    expect([error.code, error.status]).toEqual([code, status]);
  });

  it.each(['undefined', 'null', ' NULL ', '[object Object]', 42])(
    'is an invalid response when the credify_id is not an identifier (%j): nothing to store',
    async (credifyId) => {
      const service = fakeService({
        '/v1/token': () => tokenOk(),
        '/v1/claim-providers/offers': () => ok({ offers: [{ code: 'o' }], credify_id: credifyId }),
      });
      const error = await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user));
      expect(error.code).toBe('invalid_response');
    },
  );

  it('is rejected when a 200 says success: false', async () => {
    const service = fakeService({
      '/v1/token': () => tokenOk(),
      '/v1/claim-providers/offers': () =>
        json(200, { success: false, errors: [{ code: 'not_whitelisted' }] }),
    });
    const error = await failure(makeSdk({ fetch: service.fetch }).bnpl.getBNPLAvailability(user));
    expect(error.code).toBe('rejected');
    expect(error.message).toContain('not_whitelisted');
  });

  it('refuses a user without an id before calling anything', async () => {
    const fetch = vi.fn();
    const sdk = makeSdk({ fetch });
    for (const bad of [{ id: '' }, {}, null, { id: 'u', credifyId: '' }]) {
      expect((await failure(sdk.bnpl.getBNPLAvailability(bad as BnplUser))).code).toBe('invalid_argument');
    }
    expect(fetch).not.toHaveBeenCalled();
  });
});
