/**
 * `GET /sandbox/console`: the sandbox console, the page a developer keeps open while integrating
 * (organisations, orders with their history, every webhook delivery with its attempts and a Replay
 * button, disbursements, the provider's buttons, fault injection), and `GET
 * /sandbox/console/certification`, its Certification page (certify runs, live, and past runs). The
 * pages are shells without data: their scripts read and act through the admin API next to them
 * (`/sandbox/...`), so they are served without the admin token; with one configured, a page asks
 * for it and sends it as the API wants (`Authorization: Bearer`). Same strict CSP as the hosted
 * pages, never framed.
 */
import { KitError } from '@bnpl-kit/core';
import { problemResponse, SERVICE_OPERATIONS } from '@bnpl-kit/core/wire';
import { createNonce, htmlResponse } from '../pages/security.js';
import { renderCertificationPage } from './certification-page.js';
import { renderConsole } from './page.js';

export const CONSOLE_PATH = '/sandbox/console';
export const CERTIFICATION_PAGE_PATH = `${CONSOLE_PATH}/certification`;

const trimmed = (path: string) => path.replace(/\/+$/, '');

export const isConsolePath = (path: string) =>
  trimmed(path) === CONSOLE_PATH || trimmed(path) === CERTIFICATION_PAGE_PATH;

export function consoleResponse(
  request: Request,
  path: string,
  options: { adminToken: string | undefined },
): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return problemResponse(new KitError('method_not_allowed', 'The console answers GET only'), {
      allow: 'GET',
    });
  }
  const nonce = createNonce();
  const needsToken = options.adminToken !== undefined;
  const body =
    trimmed(path) === CERTIFICATION_PAGE_PATH
      ? renderCertificationPage({ nonce, data: { needsToken } })
      : renderConsole({ nonce, data: { operations: SERVICE_OPERATIONS, needsToken } });
  return htmlResponse(body, 200, nonce, undefined);
}
