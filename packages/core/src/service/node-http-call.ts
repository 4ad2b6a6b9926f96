/**
 * The service call over Node's own http client. On Node 20 a `fetch` costs several times the CPU
 * of the same request through `node:http` (bench/ and issue 36: a few hundred µs against under a
 * hundred), and the service client makes one per order, so on Node this is the default (client.ts).
 *
 * The modules come from `process.getBuiltinModule`, not an import: core's main entry is loaded by
 * Workers, Deno and Bun too, and an `import 'node:http'` there would fail or pull in a polyfill.
 * Bun and Deno keep fetch (their fetch is native, their `node:http` a layer over it), and so does
 * anything that is not Node proper.
 *
 * What it keeps of fetch's behaviour: the body decoded as `Response.text()` decodes it (UTF-8, BOM
 * dropped, malformed bytes replaced), gzip/deflate/br answers decompressed, kept-alive connections
 * shared by every client in the process, the signal ending the call before or after the headers.
 * What it does not do: follow redirects (a 3xx is the service's answer, reported with its status);
 * a service base URL that redirects is misconfigured, and following it would turn a POST into a GET.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Zlib from 'node:zlib';
import { nodeBuiltins } from '../util/node-proper.js';
import type { HttpAnswer, HttpCall, HttpRequest } from './http-call.js';

/** Each module loaded on first use: a service on plain http never loads TLS, nor zlib unless it compresses. */
interface NodeModules {
  http(): typeof Http;
  https(): typeof Https;
  zlib(): typeof Zlib;
}

function nodeModules(): NodeModules | undefined {
  const load = nodeBuiltins();
  if (load === undefined) return undefined;
  // getBuiltinModule hands back the loaded module after the first call: nothing to cache here.
  return {
    http: () => load('node:http') as typeof Http,
    https: () => load('node:https') as typeof Https,
    zlib: () => load('node:zlib') as typeof Zlib,
  };
}

/** An answer's body as a stream of plain bytes, whatever `Content-Encoding` it came in. */
function decoded(modules: NodeModules, res: Http.IncomingMessage): NodeJS.ReadableStream {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(modules.zlib().createGunzip());
  if (encoding === 'deflate') return res.pipe(modules.zlib().createInflate());
  if (encoding === 'br') return res.pipe(modules.zlib().createBrotliDecompress());
  return res;
}

const UTF8 = new TextDecoder('utf-8');

function send(
  modules: NodeModules,
  agents: Map<string, Http.Agent>,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason);
  const url = new URL(request.url);
  const client =
    url.protocol === 'https:' ? modules.https() : url.protocol === 'http:' ? modules.http() : undefined;
  if (client === undefined) {
    return Promise.reject(
      new TypeError(`The service URL's scheme ${url.protocol} is neither http: nor https:`),
    );
  }
  let agent = agents.get(url.protocol);
  if (agent === undefined) {
    // Idle connections are unreferenced by the agent, so they never keep a process alive; its
    // `timeout` is the longest an idle one is kept (shorter when the server's Keep-Alive says so).
    agent = new client.Agent({ keepAlive: true, timeout: 4_000 });
    agents.set(url.protocol, agent);
  }
  const headers: Record<string, string | number> = { ...request.headers };
  if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
  const once = (via: Http.Agent | false) => attempt(modules, client, url, headers, via, request);
  // A kept-alive connection the service closed just as this request went out fails before any
  // answer: the service never read the request, so it is sent once more on a new connection
  // (Node's documented use of `reusedSocket`). The new connection is not pooled: it is rare.
  return once(agent).catch((error: unknown) =>
    error instanceof StaleConnection && !signal.aborted ? once(false) : Promise.reject(error),
  );
}

/** A request that failed on a reused connection before any byte of an answer arrived. */
class StaleConnection extends Error {
  constructor(cause: unknown) {
    super('The kept-alive connection to the service was closed under the request', { cause });
  }
}

function attempt(
  modules: NodeModules,
  client: typeof Http | typeof Https,
  url: URL,
  headers: Record<string, string | number>,
  agent: Http.Agent | false,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const { signal } = request;
  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    let answered = false;
    const finish = (error: unknown, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (answer) return resolve(answer);
      // Whatever failed, the connection is not handed back half-read to the next call.
      req.destroy();
      reject(error);
    };
    // `request` is read from the module on every call (not kept): a test's interceptor (msw)
    // replaces it after core has loaded.
    const req = client.request(url, { method: request.method, headers, agent });
    const onAbort = () => finish(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish(!answered && req.reusedSocket ? new StaleConnection(error) : error));
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      // A connection cut mid-body is an error of `res`; a bad compressed body one of the
      // decompressor, which `pipe` does not pass on: both are listened to.
      res.on('error', (error) => finish(error));
      const body = decoded(modules, res);
      if (body !== res) body.on('error', (error) => finish(error));
      body.on('data', (chunk: Buffer) => chunks.push(chunk));
      body.on('end', () =>
        finish(undefined, { status: res.statusCode ?? 0, text: UTF8.decode(Buffer.concat(chunks)) }),
      );
    });
    req.end(request.body);
  });
}

let shared: HttpCall | null | undefined;

/**
 * The call over `node:http`, or undefined when this is not Node. One per process: its kept-alive
 * connections are shared, as fetch's are.
 */
export function nodeHttpCall(): HttpCall | undefined {
  if (shared === undefined) {
    const modules = nodeModules();
    const agents = new Map<string, Http.Agent>();
    shared = modules ? (request) => send(modules, agents, request) : null;
  }
  return shared ?? undefined;
}
