/**
 * The offer filter where docs/protocol.md once left a choice (WIRE §7, issue 32): `offers` absent or
 * null (R-OFFER-12), a `null` level in `required_custom_scopes` (R-OFFER-13), and a claim named
 * without a scope that the user holds nowhere (R-OFFER-14). Sent straight to the market's filter
 * with a service token, so the answer is the market's own.
 */
import { ensure, expectJsonObject, isObject } from '../expect.js';
import { routeUrl } from '../support/routes.js';
import { bearer } from '../support/users.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

async function filter(ctx: CheckContext, body: Record<string, unknown>) {
  const token = await ctx.sandbox.offerFilterToken();
  const exchange = await ctx.http.send(routeUrl(ctx, 'filterOffers'), {
    method: 'POST',
    json: body,
    headers: bearer(token),
  });
  const answer =
    exchange.status === 200 ? expectJsonObject(exchange, 'from the offer filter', 'WIRE §7') : {};
  const data = isObject(answer.data) ? answer.data : {};
  const offers = Array.isArray(data.offers) ? data.offers.filter(isObject) : undefined;
  return { exchange, offers };
}

export const offerDecisionChecks: ContractCheck[] = [
  {
    id: 'offers.filter.decided-shapes',
    title:
      'offers absent or null is no offer; null credify_id, conditions or required_custom_scopes is the member left out; a null level of required_custom_scopes requires nothing; an unscoped claim the user lacks names no scope',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-01', 'R-OFFER-12', 'R-OFFER-13', 'R-OFFER-14'],
    async run(ctx) {
      const localId = (await ctx.users())[0]?.id;
      if (localId === undefined) return ctx.skip('needs a demo user (GET /v1/demo-user)');
      for (const [what, body] of [
        ['without offers', { local_id: localId }],
        ['with "offers": null', { local_id: localId, offers: null }],
      ] as const) {
        const { exchange, offers } = await filter(ctx, body);
        ensure(exchange.status === 200 && offers?.length === 0, {
          expected: `200 { "data": { "offers": [] } } for a filter request ${what} (read as [])`,
          exchange,
          spec: 'WIRE §7',
          rule: 'R-OFFER-12',
        });
      }
      // null is absent for every optional member (a strict decoder's "null is not a string" is not).
      for (const [what, member] of [
        ['"credify_id": null beside a local_id', { credify_id: null }],
        ['an offer whose "conditions" is null', { conditions: null }],
        ['an offer whose "required_custom_scopes" is null', { required_custom_scopes: null }],
      ] as const) {
        const nullCode = ctx.unique('null');
        const { conditions, required_custom_scopes, credify_id } = member as Record<string, null>;
        const offer = {
          code: nullCode,
          ...(conditions === null && { conditions }),
          ...(required_custom_scopes === null && { required_custom_scopes }),
        };
        const { exchange, offers } = await filter(ctx, {
          local_id: localId,
          ...(credify_id === null && { credify_id }),
          offers: [offer],
        });
        const rank = offers?.find((o) => o.code === nullCode)?.evaluation_result;
        ensure(exchange.status === 200 && isObject(rank) && rank.rank === 1, {
          expected: `offer ${nullCode} to rank 1 for a filter request with ${what} (null is the member left out: no condition, no scope, no service user ID)`,
          exchange,
          spec: 'WIRE §7',
          rule: what.includes('credify_id') ? 'R-OFFER-01' : 'R-OFFER-13',
        });
      }
      const unscoped = ctx.unique('no-such-claim');
      const code = ctx.unique('decided');
      const { exchange, offers } = await filter(ctx, {
        local_id: localId,
        offers: [
          {
            code,
            // Level 1: no condition, a null scope list; level 2: a claim nobody holds, named without a scope.
            conditions: [null, { kind: 'EQUALITY_CONDITION', claim: unscoped, value: 1 }],
            required_custom_scopes: [null, null],
          },
        ],
      });
      const result = offers?.find((o) => o.code === code)?.evaluation_result;
      ensure(isObject(result) && result.rank === 1, {
        expected: `offer ${code} to rank 1: its first level has no condition and a null scope list (requires nothing), its second names "${unscoped}", which the user lacks`,
        exchange,
        spec: 'WIRE §7',
        rule: 'R-OFFER-13',
      });
      const named = [result.used_scopes, result.requested_scopes].flatMap((s) =>
        Array.isArray(s) ? s : [s],
      );
      ensure(named.length === 0, {
        expected: `empty used_scopes and requested_scopes for offer ${code}: the unscoped claim "${unscoped}" is held in no scope of the user, so it names none`,
        actual: `evaluation_result ${JSON.stringify(result)}`,
        exchange,
        spec: 'WIRE §7',
        rule: 'R-OFFER-14',
      });
    },
  },
];
