/**
 * The kit's market behind one framework, as a market deploys it: express and koa with the
 * adapter's router, hono with `@hono/node-server`. Shared by every kit-side benchmark server.
 */
import type { Server } from 'node:http';
import type { Market } from '@bnpl-kit/core';

export type Framework = 'express' | 'koa' | 'hono';

export async function listen(framework: Framework, market: Market): Promise<Server> {
  if (framework === 'express') {
    const { default: express } = await import('express');
    const { createBnplRouter } = await import('@bnpl-kit/express');
    return express().use(createBnplRouter(market)).listen(0, '127.0.0.1');
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const { createBnplRouter } = await import('@bnpl-kit/koa');
    return new Koa().use(createBnplRouter(market)).listen(0, '127.0.0.1');
  }
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const { createBnplRouter } = await import('@bnpl-kit/hono');
  const app = new Hono().route('/', createBnplRouter(market));
  return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
}
