/**
 * The offer filtering endpoint's wire shapes (WIRE §7). Offers are loose objects because the service
 * sends campaign details we must echo back untouched.
 */
import * as z from 'zod';
import { levelConditionSchema } from './conditions.js';

/** Trimmed, then at least one character: the documents say "holds something besides white space". */
const NOT_BLANK = '\\S';
const id = z.string().trim().min(1, { error: 'must not be empty' }).meta({ pattern: NOT_BLANK }).nullish();
const ID_MEMBERS = ['credify_id', 'local_id'] as const;

export const offerSchema = z.looseObject({
  code: z.string({ error: 'the offer code is required' }).min(1, { error: 'must not be empty' }),
  conditions: z
    .array(levelConditionSchema)
    .nullish()
    .transform((v) => v ?? []),
  required_custom_scopes: z
    .array(z.array(z.string().min(1, { error: 'must not be empty' })).nullish())
    .nullish()
    .transform((v) => (v ?? []).map((level) => level ?? [])),
});
export type Offer = z.output<typeof offerSchema>;
export type OfferInput = z.input<typeof offerSchema>;

export const filterOffersRequestSchema = z
  .object({
    credify_id: id,
    local_id: id,
    offers: z
      .array(offerSchema)
      .nullish()
      .transform((v) => v ?? []),
  })
  .superRefine((body, ctx) => {
    if (!body.credify_id && !body.local_id) {
      ctx.addIssue({ code: 'custom', path: ['credify_id'], message: 'credify_id or local_id is required' });
    }
  })
  // The refine above, as the documents say it: one of the two IDs present as a string.
  .meta({
    anyOf: ID_MEMBERS.map((member) => ({
      required: [member],
      properties: { [member]: { type: 'string', pattern: NOT_BLANK } },
    })),
  });
export type FilterOffersRequest = z.output<typeof filterOffersRequestSchema>;
export type FilterOffersRequestInput = z.input<typeof filterOffersRequestSchema>;

const evaluationResultSchema = z.object({
  rank: z.number().int().nonnegative(),
  used_scopes: z.array(z.string()),
  requested_scopes: z.array(z.string()),
});
const evaluatedOfferSchema = z.looseObject({
  code: z.string().min(1),
  evaluation_result: evaluationResultSchema.extend({ rank: z.number().int().positive() }),
});
export type EvaluatedOffer = z.infer<typeof evaluatedOfferSchema>;

export const filterOffersResponseSchema = z.object({
  data: z.object({ offers: z.array(evaluatedOfferSchema) }),
});
export type FilterOffersResponse = z.infer<typeof filterOffersResponseSchema>;
