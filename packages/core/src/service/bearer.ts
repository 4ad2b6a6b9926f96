/**
 * Bearer calls: every operation but `token` carries the access token, fetched with the API key
 * and shared by all calls (access-token-cache.ts). A 401 renews the token once, unless another
 * caller already has; a second 401 is the service's answer.
 */
import { AccessTokenCache } from './access-token-cache.js';
import { API_KEY_HEADER, type ServiceOperation } from './routes.js';
import type { CallInput, ResponseOf, Send } from './sender.js';
import { UnauthorizedAnswer } from './transport.js';

export type Call = <Op extends ServiceOperation>(operation: Op, input: CallInput) => Promise<ResponseOf<Op>>;

export function createBearerCaller(send: Send, apiKey: string, now: () => number): Call {
  const tokens = new AccessTokenCache(async () => {
    try {
      const data = await send('token', {}, { [API_KEY_HEADER]: apiKey });
      return { value: data.accessToken, expiresInSeconds: data.expiresIn };
    } catch (error) {
      throw error instanceof UnauthorizedAnswer ? error.kitError : error;
    }
  }, now);

  return async function call<Op extends ServiceOperation>(
    operation: Op,
    input: CallInput,
  ): Promise<ResponseOf<Op>> {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      try {
        return await send(operation, input, { Authorization: `Bearer ${token}` });
      } catch (error) {
        if (!(error instanceof UnauthorizedAnswer)) throw error;
        if (attempt > 0) throw error.kitError;
        tokens.invalidate(token);
      }
    }
  };
}
