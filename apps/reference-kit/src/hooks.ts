/**
 * The market hooks of the reference servers, on the store. Basic mode needs the two auth hooks and
 * the BNPL callback; data-sharing mode implements all eight: claims are built with core's claim
 * builder from the stored profile, custom claim data and commitments, and readiness for
 * disbursement enqueues a disbursement job in the webhook's own transaction.
 */
import {
  type BasicProfileKey,
  buildClaimObject,
  type ClaimObject,
  KitError,
  type MarketHooks,
  type MarketLogger,
  type Secret,
  type StoredOrder,
  type WebhookHookInput,
} from '@bnpl-kit/core';
import type { Store, StoreTransaction, UserRecord } from '@bnpl-kit/store';
import { enqueueDisbursement } from '@bnpl-kit/store/worker';
import { authenticateMarketSystem, authenticateSessionUser } from './auth.js';
import { completeLinks } from './complete-link.js';
import type { DisbursementInvoiceSource } from './invoice.js';

export interface HookDeps {
  store: Store;
  logger: MarketLogger;
  marketApiToken: Secret;
  appId: string;
  providingBasicProfile: readonly BasicProfileKey[];
  /** `BNPL_CALLBACK_URL`; the user lands here (with `?order_id=`) after the BNPL flow. */
  bnplCallbackUrl: string;
  /** Used by `POST /v1/orders/:id/disburse` without an invoice and by the disbursement job alike. */
  getDisbursementInvoice: DisbursementInvoiceSource;
}

/** The trace both modes keep of every webhook the market processed. */
function logWebhook(
  logger: MarketLogger,
  { eventId, event, order, transition }: WebhookHookInput<StoreTransaction>,
) {
  logger.info(
    { eventId, type: event.type, orderId: order?.id, status: order?.status, changed: transition?.changed },
    'webhook processed',
  );
}

function callbackFor(deps: HookDeps) {
  const links = completeLinks(deps.marketApiToken);
  return (order: StoredOrder): string => {
    const url = new URL(deps.bnplCallbackUrl);
    url.searchParams.set('order_id', order.id);
    // The page shows the order only to whoever holds this link (complete-link.ts).
    url.searchParams.set('sig', links.sign(order.id));
    return url.toString();
  };
}

export function basicHooks(deps: HookDeps): MarketHooks<StoreTransaction> {
  return {
    authenticateInternalAPIClient: authenticateMarketSystem(deps.marketApiToken),
    authenticateInternalUser: authenticateSessionUser(deps.store),
    getBNPLCallback: callbackFor(deps),
    getDisbursementInvoice: (order) => deps.getDisbursementInvoice(order),
    async handleWebhook(input) {
      // Basic mode: the service disburses by itself once documents are accepted; just keep a trace.
      logWebhook(deps.logger, input);
    },
  };
}

/** The claim object of one stored user (commitments from the last push when asked for). */
export async function claimsOfUser(
  deps: Pick<HookDeps, 'store' | 'appId' | 'providingBasicProfile'>,
  user: UserRecord,
  options: { scopes?: readonly string[]; includeCommitments: boolean },
): Promise<ClaimObject> {
  return buildClaimObject({
    organizationId: deps.appId,
    profile: user.profile,
    providingBasicProfile: deps.providingBasicProfile,
    customScopes: user.customClaims,
    ...(options.scopes && { scopes: options.scopes }),
    ...(options.includeCommitments && { commitments: await deps.store.listCommitments(user.id) }),
  });
}

async function findUser(store: Store, localId: string | undefined, credifyId: string | undefined) {
  const user =
    (localId !== undefined ? await store.findUserById(localId) : undefined) ??
    (credifyId !== undefined ? await store.findUserByCredifyId(credifyId) : undefined);
  if (!user) throw new KitError('user_not_found', 'No such user in this market');
  return user;
}

export function dataSharingHooks(deps: HookDeps): MarketHooks<StoreTransaction> {
  const { store, logger } = deps;
  return {
    ...basicHooks(deps),

    async fetchUserClaimObject({ localId, credifyId, scopes, includeCommitments }) {
      const user = await findUser(store, localId, credifyId);
      return claimsOfUser(deps, user, { scopes, includeCommitments });
    },

    async updateUserId({ localId, credifyId }) {
      const user = await store.findUserById(localId);
      if (user?.credifyId === credifyId) return;
      await store.setUserCredifyId(localId, credifyId);
    },

    async upsertCommitments({ localId, commitments }) {
      await store.upsertCommitments(localId, commitments);
    },

    async handleWebhook(input) {
      const { eventId, order, readyForDisbursement, tx } = input;
      logWebhook(logger, input);
      if (!readyForDisbursement || !order) return;
      // Same transaction as the status change and the processed event ID: all or nothing.
      const { job, created } = await enqueueDisbursement(tx, order.id);
      logger.info({ eventId, orderId: order.id, jobId: job.id, created }, 'disbursement job enqueued');
    },
  };
}
