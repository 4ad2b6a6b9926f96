/**
 * The plugin's context and the app both answer their errors as RFC 9457 problems (the behaviour
 * suite in contract-tests covers everything the market itself answers).
 */
import { createMarket, createMemoryStore, createServiceClient, silentLogger } from '@bnpl-kit/core';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { bnpl, bnplErrorHandler } from '../src/index.js';

const market = createMarket({
  config: { mode: 'sandbox', integrationMode: 'basic', appId: 'org', publicBaseUrl: 'https://m.test/bnpl' },
  service: createServiceClient({ baseUrl: 'https://service.test', apiKey: 'key' }),
  store: createMemoryStore(),
  logger: silentLogger,
  hooks: {
    authenticateInternalAPIClient: async () => null,
    authenticateInternalUser: async () => null,
    getBNPLCallback: () => 'https://m.test/done',
  },
});

const logged: unknown[] = [];
const app = Fastify();
app.setErrorHandler(bnplErrorHandler({ onError: (error) => logged.push(error) }));
app.register(bnpl, { market, prefix: '/bnpl' });
app.get('/boom', async () => {
  throw new Error('database password is hunter2');
});
app.post('/echo', async (request) => request.body);
afterAll(() => app.close());

describe('bnplErrorHandler', () => {
  it("answers an app route's crash as a 500 problem that reveals nothing, and reports the cause", async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).not.toContain('hunter2');
    expect(logged).toHaveLength(1);
  });

  it("answers a body parser's error (invalid JSON on the app's own route) as a 400 problem", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
  });

  it('leaves the app its own JSON parser: the plugin only replaces it inside its context', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(response.json()).toEqual({ a: 1 });
  });

  it("answers a kit path the market does not own with Fastify's 404", async () => {
    const response = await app.inject({ method: 'GET', url: '/bnpl/elsewhere' });
    expect(response.statusCode).toBe(404);
  });
});
