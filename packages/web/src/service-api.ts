import type { ResolvedConfig } from './config.js';
import { BnplSdkError } from './errors.js';

/**
 * The slice of the service API (WIRE §6) the browser calls: `POST /v1/token` with `X-API-KEY`,
 * then bearer calls answered in the `{ success, data }` envelope. The token is cached until 60 s
 * before it expires, fetched by one request at a time, and fetched again once after a 401.
 */

const TOKEN_EARLY_REFRESH_MS = 60_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

export interface ServiceApi {
  /** POST a JSON body to `path` with the bearer token; resolves with the envelope's `data`. */
  post(path: string, body: unknown): Promise<unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The service's own error code, when its failure envelope has one (never the whole body). */
function serviceErrorCode(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.errors)) return undefined;
  const first: unknown = body.errors[0];
  return isRecord(first) && typeof first.code === 'string' ? first.code : undefined;
}

async function request(config: ResolvedConfig, path: string, init: RequestInit): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await config.fetch(config.serviceUrl + path, { ...init, signal: controller.signal });
    text = await response.text();
  } catch (cause) {
    if (controller.signal.aborted) {
      throw new BnplSdkError('timeout', `${path} did not answer within ${config.timeoutMs} ms`, { cause });
    }
    throw new BnplSdkError('network', `${path} could not be reached`, { cause });
  } finally {
    clearTimeout(timer);
  }

  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const status = response.status;
  const code = serviceErrorCode(body);
  const suffix = code ? ` (${code})` : '';
  if (status === 401 || status === 403) {
    throw new BnplSdkError('unauthorized', `${path} refused the credentials: ${status}${suffix}`, { status });
  }
  if (status === 429 || status >= 500) {
    throw new BnplSdkError('unavailable', `${path} failed: ${status}${suffix}`, { status });
  }
  if (status < 200 || status >= 300) {
    throw new BnplSdkError('rejected', `${path} rejected the request: ${status}${suffix}`, { status });
  }
  if (!isRecord(body) || typeof body.success !== 'boolean') {
    throw new BnplSdkError('invalid_response', `${path} did not answer with a JSON envelope`, { status });
  }
  if (!body.success) {
    throw new BnplSdkError('rejected', `${path} answered success: false${suffix}`, { status });
  }
  return body.data;
}

export function createServiceApi(config: ResolvedConfig, now: () => number = Date.now): ServiceApi {
  let cached: CachedToken | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const data = await request(config, '/v1/token', {
      method: 'POST',
      headers: { 'X-API-KEY': config.apiKey, Accept: 'application/json' },
    });
    if (
      !isRecord(data) ||
      typeof data.access_token !== 'string' ||
      data.access_token === '' ||
      typeof data.expires_in !== 'number' ||
      !(data.expires_in > 0)
    ) {
      throw new BnplSdkError('invalid_response', '/v1/token answered without access_token and expires_in');
    }
    cached = { value: data.access_token, expiresAt: now() + data.expires_in * 1000 };
    return data.access_token;
  }

  function token(): Promise<string> {
    if (cached && now() < cached.expiresAt - TOKEN_EARLY_REFRESH_MS) return Promise.resolve(cached.value);
    // Concurrent callers share one token request.
    pending ??= fetchToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function post(path: string, body: unknown): Promise<unknown> {
    const send = async (bearer: string) =>
      request(config, path, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${bearer}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(body),
      });
    const first = await token();
    try {
      return await send(first);
    } catch (error) {
      // A token revoked or expired early: drop it and try once more with a fresh one.
      if (!(error instanceof BnplSdkError) || error.status !== 401) throw error;
      if (cached?.value === first) cached = undefined;
      return send(await token());
    }
  }

  return { post };
}
