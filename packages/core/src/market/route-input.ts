/**
 * What the route table's entry says, run before the handler: the path parameters checked against
 * their schemas, the caller authenticated as `auth` says, the body decoded (the one strict JSON
 * decoder, then the entry's schema). The handler receives the result typed by its entry, and never
 * authenticates or decodes by itself.
 */
import type * as z from 'zod';
import { KitError } from '../errors.js';
import type { WebhookEvent } from '../models/events.js';
import { parseWire } from '../models/wire.js';
import type { TokenIntrospection } from '../service/types.js';
import type { VerifiedWebhook } from '../signature/verify.js';
import type { MarketAnswer } from './answer.js';
import { bearerToken } from './bearer-auth.js';
import { readJsonBody } from './body.js';
import { callHook, type RouteContext, unauthenticated } from './context.js';
import type { Principal } from './hooks.js';
import type {
  MARKET_ROUTES,
  MarketOperation,
  MarketParam,
  MarketRequestBody,
  MarketRouteAuth,
  MarketRouteDefinition,
} from './route-table.js';
import { receiveSignedWebhook } from './signed-webhook.js';

/** Who the caller is, by the entry's `auth`. */
export interface PrincipalByAuth {
  'market-systems': Principal;
  'user-session': Principal;
  /** The service, with the introspection of its bearer token. */
  'service-token': TokenIntrospection;
  /** The service, with the verified delivery (event ID, time, key). */
  'webhook-signature': VerifiedWebhook;
  none: undefined;
}

type BodyOf<D extends MarketRouteDefinition> = D['auth'] extends 'webhook-signature'
  ? WebhookEvent
  : D extends { request: MarketRequestBody<infer S> }
    ? D['request'] extends { required: true }
      ? z.output<S>
      : z.output<S> | undefined
    : undefined;

type ParamsOf<D extends MarketRouteDefinition> = D extends { params: infer P }
  ? { readonly [K in keyof P]: string }
  : Readonly<Record<string, never>>;

/** A handler's input, typed by its route table entry. */
export interface RouteInput<D extends MarketRouteDefinition = MarketRouteDefinition> {
  readonly principal: PrincipalByAuth[D['auth']];
  readonly params: ParamsOf<D>;
  readonly body: BodyOf<D>;
  /** The body's JSON before the schema (an offer filter echoes offers exactly as sent). */
  readonly json: unknown;
}

/** The input of the route table's operation `K`. */
export type InputOf<K extends MarketOperation> = RouteInput<(typeof MARKET_ROUTES)[K]>;

/** A route's plain function: typed input in, an answer the entry declares out. */
export type MarketHandler<D extends MarketRouteDefinition = MarketRouteDefinition> = (
  input: RouteInput<D>,
  ctx: RouteContext,
) => Promise<MarketAnswer>;

/** Path parameters are looked up and stored like body IDs: the same rules, the same 400. */
function decodeParams(
  specs: Readonly<Record<string, MarketParam>>,
  params: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  for (const name in specs) {
    const result = specs[name]!.schema.safeParse(params[name]);
    if (result.success) continue;
    const problem = result.error.issues[0]?.message ?? 'is invalid';
    throw new KitError('validation_failed', `Path parameter ${name} ${problem}`, {
      errors: [{ path: name, message: problem }],
    });
  }
  return params;
}

async function authenticate(auth: Exclude<MarketRouteAuth, 'webhook-signature'>, ctx: RouteContext) {
  const { hooks } = ctx.deps;
  switch (auth) {
    case 'market-systems': {
      const principal = await callHook(ctx, 'authenticateInternalAPIClient', () =>
        hooks.authenticateInternalAPIClient(ctx.request, ctx.hookContext),
      );
      if (!principal)
        throw unauthenticated(
          'This endpoint is for the market’s own systems; credentials missing or invalid',
        );
      return principal;
    }
    case 'user-session': {
      const principal = await callHook(ctx, 'authenticateInternalUser', () =>
        hooks.authenticateInternalUser(ctx.request, ctx.hookContext),
      );
      if (!principal) throw unauthenticated('Sign in first: user credentials missing or invalid');
      return principal;
    }
    case 'service-token': {
      const token = bearerToken(ctx.request);
      if (token === undefined) throw unauthenticated('A bearer token issued by the service is required');
      const { request, deps } = ctx;
      const introspection = await deps.introspection.check(token, request.signal, deps.clientKey(request));
      if (!introspection)
        throw unauthenticated('The bearer token is not active or lacks the offer filtering scope');
      return introspection;
    }
    case 'none':
      return undefined;
  }
}

class Input implements RouteInput {
  constructor(
    readonly principal: RouteInput['principal'],
    readonly params: RouteInput['params'],
    readonly body: RouteInput['body'],
    readonly json: unknown,
  ) {}
}

const NO_PARAMS: Readonly<Record<string, never>> = Object.freeze({});

/** Runs the entry's parameter, authentication and body steps, in that order. */
export async function decodeInput(entry: MarketRouteDefinition, ctx: RouteContext): Promise<RouteInput> {
  const params = entry.params === undefined ? NO_PARAMS : decodeParams(entry.params, ctx.params);
  if (entry.auth === 'webhook-signature') {
    const { verified, event } = await receiveSignedWebhook(ctx);
    return new Input(verified, params as RouteInput['params'], event as never, undefined);
  }
  const principal = await authenticate(entry.auth, ctx);
  const { request } = entry;
  let json: unknown;
  let body: unknown;
  if (request !== undefined) {
    json = await readJsonBody(ctx.request, ctx.deps.limits.maxBodyBytes, { optional: !request.required });
    if (json !== undefined) body = parseWire(request.schema, json, 'Request body');
  } else if (entry.method !== 'GET') {
    // No body is defined; one that is sent must still be JSON and within the limit.
    json = await readJsonBody(ctx.request, ctx.deps.limits.maxBodyBytes, { optional: true });
  }
  return new Input(principal, params as RouteInput['params'], body as never, json);
}
