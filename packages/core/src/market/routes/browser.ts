/** The two browser-facing endpoints: the BNPL redirect and the sandbox demo user. */
import { KitError } from '../../errors.js';
import type { MarketAnswer } from '../answer.js';
import { callHook, HookFailure, json, type RouteContext } from '../context.js';
import type { InputOf } from '../route-input.js';

export async function bnplRedirect(
  { params: { id } }: InputOf<'bnplRedirect'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  const order = await ctx.deps.store.findOrderById(id);
  if (!order) throw new KitError('order_not_found', `No order ${JSON.stringify(id)} is known to this market`);
  const target = await callHook(ctx, 'getBNPLCallback', () =>
    ctx.deps.hooks.getBNPLCallback(order, ctx.hookContext),
  );
  // An open redirect or a `javascript:` URL would be the market's bug, but the user's problem.
  if (typeof target !== 'string' || !/^https?:\/\//i.test(target) || !URL.canParse(target)) {
    throw new HookFailure(
      'getBNPLCallback',
      undefined,
      'Hook getBNPLCallback did not return an absolute http(s) URL',
    );
  }
  return { status: 302, headers: { location: target, 'cache-control': 'no-store' }, body: null };
}

export async function demoUser(_input: InputOf<'getDemoUser'>, ctx: RouteContext): Promise<MarketAnswer> {
  const { demoUser } = ctx.deps;
  return json(typeof demoUser === 'function' ? await demoUser() : demoUser);
}
