/**
 * What the behaviour suite in contract-tests does not cover: the market built from providers Nest
 * resolves (forRootAsync), the market injectable elsewhere, and the exception filter, on both
 * platforms.
 */
import {
  createMarket,
  createMemoryStore,
  createServiceClient,
  type Market,
  silentLogger,
} from '@bnpl-kit/core';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BNPL_MARKET, BnplModule, bnplErrorHandler } from '../src/index.js';

const TOKENS = Symbol('tokens');
/** A module of the app that the market's hooks depend on. */
const AuthModule = {
  module: class AuthModule {},
  providers: [{ provide: TOKENS, useValue: new Map([['t-1', 'backend-1']]) }],
  exports: [TOKENS],
};

function buildMarket(tokens: Map<string, string>): Market {
  return createMarket({
    config: { mode: 'sandbox', integrationMode: 'basic', appId: 'org', publicBaseUrl: 'https://m.test/pay' },
    service: createServiceClient({ baseUrl: 'https://service.test', apiKey: 'key' }),
    store: createMemoryStore(),
    logger: silentLogger,
    hooks: {
      authenticateInternalAPIClient: async (request) => {
        const id = tokens.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '');
        return id ? { id } : null;
      },
      authenticateInternalUser: async () => null,
      getBNPLCallback: () => 'https://m.test/done',
    },
  });
}

describe.each(['express', 'fastify'] as const)('BnplModule on %s', (platform) => {
  let app: INestApplication;
  let origin: string;
  const logged: unknown[] = [];

  beforeAll(async () => {
    const root = {
      module: class AppModule {},
      imports: [
        BnplModule.forRootAsync({
          imports: [AuthModule],
          inject: [TOKENS],
          useFactory: async (tokens: Map<string, string>) => ({ market: buildMarket(tokens), path: '/pay' }),
        }),
      ],
    };
    app = await NestFactory.create(
      root,
      platform === 'express' ? new ExpressAdapter() : new FastifyAdapter(),
      {
        logger: false,
      },
    );
    app.useGlobalFilters(bnplErrorHandler({ onError: (error) => logged.push(error) }));
    const http = app.getHttpAdapter();
    http.get('/boom', () => {
      throw new Error('secret connection string');
    });
    await app.listen(0, '127.0.0.1');
    origin = await app.getUrl();
  });
  afterAll(() => app?.close());

  it('resolves the hooks through DI: the token from the injected provider authenticates', async () => {
    const order = (token: string) =>
      fetch(`${origin}/pay/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    expect((await order('t-2')).status).toBe(401);
    // Past authentication: the empty order is refused for what it is.
    const known = await order('t-1');
    expect(known.status).toBe(400);
    expect((await known.json()).code).toBe('validation_failed');
  });

  it('exports the market as BNPL_MARKET', () => {
    const market = app.get<Market>(BNPL_MARKET);
    expect(market.ownsPath('/v1/webhook')).toBe(true);
  });

  it("answers Nest's errors as problems through the filter (404 route, thrown error without its message)", async () => {
    const missing = await fetch(`${origin}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const boom = await fetch(`${origin}/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.text()).not.toContain('secret');
    expect(logged).toHaveLength(1);
  });
});
