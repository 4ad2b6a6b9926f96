/**
 * The query parameters of the hosted pages (the URL contract of `@bnpl-kit/web`'s protocol.ts):
 *
 *   /pages/bnpl?order_id&app_name&origin&session[&credify_id]
 *   /pages/passport?credify_id&market_id&product_types&app_name&origin&session
 *
 * `origin` and `session` come together (the page is in the SDK's iframe) or not at all (the page was
 * opened top-level, e.g. from a link in an email). `origin` must be a bare http(s) origin: it becomes
 * the page's only postMessage target and its CSP `frame-ancestors`, so nothing else is accepted.
 */

const MAX_ID = 256;
const MAX_APP_NAME = 100;
const SESSION = /^[0-9a-f]{32}$/;

export class PageParamError extends Error {}

export interface FrameParams {
  /** The market page's origin: the only window that may frame this page and hear from it. */
  origin: string;
  session: string;
}

export function parseHttpOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === value ? value : undefined;
}

function id(params: URLSearchParams, name: string, required: true): string;
function id(params: URLSearchParams, name: string, required: false): string | undefined;
function id(params: URLSearchParams, name: string, required: boolean): string | undefined {
  const value = params.get(name);
  if (value === null || value === '') {
    if (required) throw new PageParamError(`The ${name} parameter is required`);
    return undefined;
  }
  if (value.length > MAX_ID) throw new PageParamError(`The ${name} parameter is too long`);
  return value;
}

/** The frame parameters, or undefined for a top-level page; throws when they are unusable. */
export function readFrameParams(params: URLSearchParams): FrameParams | undefined {
  const origin = params.get('origin');
  const session = params.get('session');
  if (origin === null && session === null) return undefined;
  if (origin === null || parseHttpOrigin(origin) === undefined) {
    throw new PageParamError('The origin parameter must be the http(s) origin of the market page');
  }
  if (session === null || !SESSION.test(session)) {
    throw new PageParamError('The session parameter must be 32 lowercase hex digits');
  }
  return { origin, session };
}

function appName(params: URLSearchParams): string | undefined {
  const value = params.get('app_name')?.trim();
  return value ? value.slice(0, MAX_APP_NAME) : undefined;
}

export interface BnplPageParams {
  orderId: string;
  credifyId: string | undefined;
  appName: string | undefined;
  frame: FrameParams | undefined;
}

export function readBnplParams(params: URLSearchParams): BnplPageParams {
  return {
    orderId: id(params, 'order_id', true),
    credifyId: id(params, 'credify_id', false),
    appName: appName(params),
    frame: readFrameParams(params),
  };
}

export interface PassportPageParams {
  credifyId: string;
  marketId: string;
  productTypes: string[];
  appName: string | undefined;
  frame: FrameParams | undefined;
}

export function readPassportParams(params: URLSearchParams): PassportPageParams {
  const types = (params.get('product_types') ?? 'consumerBNPL')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    credifyId: id(params, 'credify_id', true),
    marketId: id(params, 'market_id', true),
    productTypes: types.length > 0 ? types.slice(0, 10) : ['consumerBNPL'],
    appName: appName(params),
    frame: readFrameParams(params),
  };
}
