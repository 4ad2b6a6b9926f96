/**
 * One hand-written endpoint served the way a market without the kit would serve it: on bare
 * node:http (any path), or as one route of Express, Koa or Hono. The baselines (baseline-webhook.ts,
 * baseline-orders.ts) write only what their endpoint does; this is where it meets the framework, so
 * a kit row can be compared with the floor of a market on its own framework.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** The frameworks a hand-written endpoint is also served as one route of (bench: `baseline-<framework>`). */
export const ROUTE_FRAMEWORKS = ['express', 'koa', 'hono'] as const;
export type BaselineFramework = 'node' | (typeof ROUTE_FRAMEWORKS)[number];

/** Status and JSON text of an answer. */
export type Answer = [status: number, body: string];

/** The endpoint: a request header's value by lower-case name and the body's bytes in, an answer out. */
export type Endpoint = (header: (name: string) => string | undefined, body: Buffer) => Promise<Answer>;

const INTERNAL: Answer = [500, '{"code":"internal"}'];

/** For node:http, Express and Koa: the request's own stream and headers. */
async function answerNode(endpoint: Endpoint, req: IncomingMessage): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return endpoint(header, Buffer.concat(chunks)).catch(() => INTERNAL);
}

function send(res: ServerResponse, [status, body]: Answer): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

/** Listens on a free loopback port with `endpoint` as `POST <path>` of `framework`. */
export async function listenHandWritten(
  framework: BaselineFramework,
  path: string,
  endpoint: Endpoint,
): Promise<Server> {
  if (framework === 'express') {
    const { default: express } = await import('express');
    const app = express();
    app.post(path, (req, res) => void answerNode(endpoint, req).then((answer) => send(res, answer)));
    return app.listen(0, '127.0.0.1');
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const app = new Koa();
    app.use(async (ctx) => {
      if (ctx.method !== 'POST' || ctx.path !== path) return;
      const [status, body] = await answerNode(endpoint, ctx.req);
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = body;
    });
    return app.listen(0, '127.0.0.1');
  }
  if (framework === 'hono') {
    const { Hono } = await import('hono');
    const { serve } = await import('@hono/node-server');
    const app = new Hono().post(path, async (c) => {
      const body = Buffer.from(await c.req.arrayBuffer());
      const [status, text] = await endpoint((name) => c.req.header(name), body).catch(() => INTERNAL);
      return c.body(text, status as 200, { 'content-type': 'application/json' });
    });
    return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  }
  return createServer(
    (req, res) => void answerNode(endpoint, req).then((answer) => send(res, answer)),
  ).listen(0, '127.0.0.1');
}
