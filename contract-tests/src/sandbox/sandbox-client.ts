/**
 * The request plumbing under the HTTP sandbox driver: JSON in and out, the admin token on the
 * admin API only, a timeout on every call, and one error type for an answer the driver cannot use.
 */

export type Json = Record<string, unknown>;

export class SandboxRequestError extends Error {}

export interface SandboxAnswer {
  status: number;
  /** The parsed body, `{}` when it was empty or not JSON. */
  json: Json;
  text: string;
}

export interface SandboxClientOptions {
  url: string;
  adminToken?: string | undefined;
  fetch?: typeof fetch | undefined;
  timeoutMs: number;
}

export interface SandboxClient {
  /** The sandbox base URL without a trailing slash. */
  readonly base: string;
  /** Any call, whatever it answers. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<SandboxAnswer>;
  /** An admin call that must succeed; its JSON body. */
  admin(method: string, path: string, body?: unknown): Promise<Json>;
}

function parseJson(text: string): Json {
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return (json ?? {}) as Json;
}

export function createSandboxClient(options: SandboxClientOptions): SandboxClient {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await doFetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(options.adminToken &&
          path.startsWith('/sandbox') && { authorization: `Bearer ${options.adminToken}` }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, json: parseJson(text), text };
  }

  async function admin(method: string, path: string, body?: unknown): Promise<Json> {
    const answer = await call(method, path, body);
    if (answer.status >= 300) {
      throw new SandboxRequestError(
        `Sandbox ${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
      );
    }
    return answer.json;
  }

  return { base, call, admin };
}
