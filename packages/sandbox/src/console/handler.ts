/**
 * `GET /sandbox/console`: the sandbox console, the page a developer keeps open while integrating
 * (organisations, orders with their history, every webhook delivery with its attempts and a Replay
 * button, disbursements, the provider's buttons, fault injection). The page is a shell without
 * data: its script reads and acts through the admin API next to it (`/sandbox/...`), so it is
 * served without the admin token; with one configured, the page asks for it and sends it as the
 * API wants (`Authorization: Bearer`). Same strict CSP as the hosted pages, never framed.
 */
import { KitError } from '@bnpl-kit/core';
import { problemResponse, SERVICE_OPERATIONS } from '@bnpl-kit/core/wire';
import { createNonce, htmlResponse } from '../pages/security.js';
import { renderConsole } from './page.js';

export const CONSOLE_PATH = '/sandbox/console';

export const isConsolePath = (path: string) => path.replace(/\/+$/, '') === CONSOLE_PATH;

export function consoleResponse(request: Request, options: { adminToken: string | undefined }): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return problemResponse(new KitError('method_not_allowed', 'The console answers GET only'), {
      allow: 'GET',
    });
  }
  const nonce = createNonce();
  const body = renderConsole({
    nonce,
    data: {
      operations: SERVICE_OPERATIONS,
      needsToken: options.adminToken !== undefined,
    },
  });
  return htmlResponse(body, 200, nonce, undefined);
}
