/**
 * `createSandbox`: the simulated BNPL service and provider as one fetch handler plus state access.
 * It serves the service routes of the shared route table (service-api.ts) and a small admin API
 * under `/sandbox/...` (admin/routes.ts) with its console page at `/sandbox/console` (console/), the
 * hosted pages the web SDK opens under `/pages/...` (pages/), and sends signed webhooks
 * (webhooks/sender.ts). dispatch.ts routes a request; facades.ts holds the sections below.
 */

// One meaning of `HandleOptions` everywhere: `basePath`, the mount prefix stripped before routing.
import type { HandleOptions } from '@bnpl-kit/core';
import { ed25519PublicKey } from '@bnpl-kit/core/testing';
import { base64UrlEncode, parseSigningKey, type ScopeClaims } from '@bnpl-kit/core/wire';
import { type AutoScenario, attachAutoScenario } from './auto.js';
import { type Clock, isManualClock, systemClock } from './clock.js';
import { createCertificationRuns } from './console/certification-runs.js';
import { type AdminAccess, createDispatcher } from './dispatch.js';
import { faultsFacade, ordersFacade, organizationsFacade, peopleFacades, webhooksFacade } from './facades.js';
import { type Fault, type FaultInput, FaultRegistry } from './faults.js';
import { DEFAULT_ENTITY_ID, DEFAULT_ORGANIZATION_ID, type SandboxOptions } from './options.js';
import { type OrderBehaviour, OrderBook, type ReadinessVia } from './orders.js';
import { normalizeOrganization, type Organization, type OrganizationInput } from './organizations.js';
import { createHostedPages } from './pages/index.js';
import { CallRecorder } from './recorder.js';
import type { ServiceApiDeps } from './service-api.js';
import {
  type ClaimTokenRecord,
  type Disbursement,
  type SandboxOrder,
  SandboxState,
  type ServiceUser,
  type Transaction,
} from './state.js';
import { SandboxTimers } from './timers.js';
import { DEFAULT_TOKEN_TTL_SECONDS, TokenIssuer } from './tokens.js';
import { type DeliveryFilter, WebhookSender } from './webhooks/sender.js';
import type { Delivery } from './webhooks/types.js';

export interface Sandbox {
  /** The one fetch handler: service routes (WIRE §6), the `/sandbox/...` admin API, `/pages/...`. */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  readonly entityId: string;
  readonly clock: Clock;
  /** The raw records, for assertions. */
  readonly state: SandboxState;
  /** The webhook signing public key, base64url of the raw 32 bytes (also at `GET /v1/entity/public-key`). */
  publicKey(): Promise<string>;
  readonly organizations: {
    list(): Organization[];
    get(id: string): Organization | undefined;
    /** The first organisation: the default one when none was configured. */
    primary(): Organization;
    /** Creates, or updates the fields `input` mentions (the others keep their values). */
    upsert(input: OrganizationInput): Organization;
    /** Like `upsert`, for an organisation that must exist. */
    update(id: string, patch: Omit<OrganizationInput, 'id'>): Organization;
    remove(id: string): boolean;
    /** The key its claim tokens are verified with (registered or derived from its signing key). */
    claimPublicKey(id: string): Promise<string | undefined>;
    /**
     * A token as the service sends with an offer filtering call (scope
     * `claim_provider:read_filtered_offers`), so a certification can call the market's filter with
     * requests availability never makes (no user ID, malformed conditions).
     */
    offerFilterToken(id: string): string;
    /** Revokes its API access tokens (`POST /v1/token`'s): its next call with one is a 401. How many. */
    revokeAccessTokens(id: string): number;
  };
  readonly orders: {
    list(): SandboxOrder[];
    get(id: string): SandboxOrder | undefined;
    approve(id: string, options?: { credifyId?: string; offerCode?: string }): SandboxOrder;
    reject(id: string): SandboxOrder;
    confirmReadiness(id: string, via?: ReadinessVia): SandboxOrder;
    markPaid(id: string): SandboxOrder;
  };
  readonly users: { list(): ServiceUser[]; get(credifyId: string): ServiceUser | undefined };
  readonly claims: {
    list(credifyId: string): ClaimTokenRecord[];
    /** Whether one scope's claims (commitment entry included) hash to the scope hash the market pushed. */
    matches(credifyId: string, scopeName: string, scopeClaims: ScopeClaims): Promise<boolean>;
  };
  readonly transactions: {
    list(): Transaction[];
    upsert(input: {
      id?: string;
      credifyId: string;
      orderId?: string;
      offerCode: string;
      status: string;
    }): Transaction;
    completeDispute(id: string, status: string): Transaction;
  };
  disbursements(): Disbursement[];
  readonly webhooks: {
    list(filter?: DeliveryFilter): Delivery[];
    get(id: string): Delivery | undefined;
    replay(id: string, options?: { verbatim?: boolean }): Delivery | undefined;
    /** Takes back deliveries recorded before a restart and resumes the unfinished ones (persistence). */
    restore(deliveries: readonly Delivery[]): void;
    /** Sends any payload (known or unknown `type`) to the organisation's webhook URLs. */
    emit(organizationId: string, payload: Record<string, unknown>): Delivery[];
    /** Resolves when no attempt is running; scheduled retries do not count. */
    idle(): Promise<void>;
    flushHeld(): void;
    readonly schedule: readonly number[];
  };
  readonly faults: { inject(input: FaultInput): Fault; list(): Fault[]; clear(): void };
  readonly calls: CallRecorder;
  readonly auto: { get(): AutoScenario | undefined; set(scenario: AutoScenario | undefined): void };
  /** Manual clock only: advances time, letting every webhook attempt that becomes due finish. */
  tick(ms: number): Promise<void>;
  /** Stops every timer and releases held answers. */
  close(): void;
  /**
   * From now on the admin API (`/sandbox/...`: organisations, their signing keys, order actions)
   * refuses every call unless an admin token is configured; `reason` goes into the refusal. For a
   * server that listens beyond loopback (`startSandboxServer` calls it itself).
   */
  requireAdminToken(reason: string): void;
  /** Whether the admin API is open without credentials (no admin token, not required). */
  readonly adminOpen: boolean;
}

/** The webhook signing seed (configured, or random per sandbox) and its public key, derived once. */
function webhookSigningKey(signingKey: SandboxOptions['signingKey']) {
  const seed = signingKey ? parseSigningKey(signingKey) : crypto.getRandomValues(new Uint8Array(32));
  let publicKeyText: Promise<string> | undefined;
  const publicKey = () => {
    publicKeyText ??= ed25519PublicKey(seed).then(base64UrlEncode);
    return publicKeyText;
  };
  return { seed, publicKey };
}

function orderBehaviour(options: SandboxOptions): OrderBehaviour {
  return {
    readinessVia: options.readinessVia ?? 'both',
    cancelVia: options.cancelVia ?? 'direct',
    cancelSettleMs: options.cancelSettleMs ?? 1000,
    disburseVia: options.disburseVia ?? 'direct',
  };
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = options.clock ?? systemClock;
  const outboundFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const state = new SandboxState();
  const faults = new FaultRegistry();
  const calls = new CallRecorder();
  const entityId = options.entityId ?? DEFAULT_ENTITY_ID;
  const { seed, publicKey } = webhookSigningKey(options.signingKey);

  const timers = new SandboxTimers(clock);
  const later = (ms: number, callback: () => void) => timers.later(ms, callback);

  for (const input of options.organizations ?? [{ id: DEFAULT_ORGANIZATION_ID }]) {
    state.organizations.set(input.id, normalizeOrganization(input));
  }

  const sender = new WebhookSender({
    clock,
    fetch: outboundFetch,
    signingSeed: seed,
    faults,
    options: options.webhooks ?? {},
    onAttemptFinished: options.onBackgroundChange,
  });
  const emit = (organizationId: string, payload: Record<string, unknown>) => {
    const organization = state.organizations.get(organizationId);
    return organization ? sender.emit(organizationId, organization.webhookUrls, payload) : [];
  };
  const orders = new OrderBook(state, clock, emit, orderBehaviour(options), later);
  let scenario = options.auto;
  attachAutoScenario(orders, () => scenario, later);
  const admin: AdminAccess = { token: options.adminToken, lockedBecause: undefined };
  const tokens = new TokenIssuer(state, clock, options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS);

  const deps: ServiceApiDeps = {
    state,
    clock,
    tokens,
    orders,
    faults,
    entityId,
    fetch: outboundFetch,
    offerFilteringTimeoutMs: options.offerFilteringTimeoutMs ?? 5000,
    webhookPublicKey: publicKey,
    hang: (request, ms) => timers.hold(request, ms),
  };

  const sandbox: Sandbox = {
    entityId,
    clock,
    state,
    publicKey,
    handle: (request, handleOptions) => dispatch(request, handleOptions),
    organizations: organizationsFacade(state, tokens),
    orders: ordersFacade(state, orders),
    ...peopleFacades(state, orders),
    disbursements: () => [...state.disbursements],
    webhooks: webhooksFacade(sender, emit),
    faults: faultsFacade(faults),
    calls,
    auto: {
      get: () => scenario,
      set(next) {
        scenario = next;
      },
    },
    async tick(ms) {
      if (!isManualClock(clock))
        throw new Error('tick() needs a manual clock: createSandbox({ clock: createManualClock() })');
      await clock.advance(ms, () => sender.settle());
    },
    close() {
      timers.close();
      sender.close();
    },
    requireAdminToken(reason) {
      admin.lockedBecause = reason;
    },
    get adminOpen() {
      return admin.token === undefined && admin.lockedBecause === undefined;
    },
  };
  // The hosted pages (`/pages/...`) act through the same provider actions as the admin API.
  const dispatch = createDispatcher({
    sandbox,
    pages: createHostedPages(sandbox),
    service: deps,
    calls,
    clock,
    admin,
    certification: options.certification && createCertificationRuns(options.certification),
  });
  return sandbox;
}
