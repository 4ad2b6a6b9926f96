/** Options of `createSandbox`, and the snake_case JSON form the CLI's `--config` file uses. */
import { parseWire } from '@bnpl-kit/core/wire';
import { z } from 'zod';
import { type AutoScenario, autoScenarioJsonSchema } from './auto.js';
import type { Clock } from './clock.js';
import type { CertificationRunner } from './console/certification-runner.js';
import type { OrderBehaviour } from './orders.js';
import { type OrganizationInput, organizationCodec } from './organizations.js';
import type { WebhookSenderOptions } from './webhooks/types.js';

export interface SandboxOptions extends Partial<OrderBehaviour> {
  /** The "dashboard". Default: one organisation `sandbox-org` with a generated API key. */
  organizations?: OrganizationInput[];
  /** The sandbox's own webhook signing key (PKCS#8 PEM or base64url seed). Default: generated. */
  signingKey?: string | Uint8Array;
  /** The service's own entity ID at `GET /v1/entity/public-key`. Default `bnpl-sandbox`. */
  entityId?: string;
  /** Outbound HTTP: webhook deliveries and offer filtering calls. Default: global fetch. */
  fetch?: typeof fetch;
  /** Time for token expiry, retries, the auto scenario and delays. Default: the system clock. */
  clock?: Clock;
  /** Lifetime of access tokens. Default 3600. */
  tokenTtlSeconds?: number;
  webhooks?: WebhookSenderOptions;
  /** Scripted provider for demos; off by default. */
  auto?: AutoScenario;
  /** When set, `/sandbox/...` admin routes require `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** How long the sandbox waits for a market's offer filtering endpoint. Default 5000. */
  offerFilteringTimeoutMs?: number;
  /** Told when state changed outside a request or timer (a webhook attempt finished): persistence. */
  onBackgroundChange?: () => void;
  /** Runs certify for the console's Certification page; without one the page says it is not available. */
  certification?: CertificationRunner;
}

export const DEFAULT_ORGANIZATION_ID = 'sandbox-org';
export const DEFAULT_ENTITY_ID = 'bnpl-sandbox';

const behaviourJson = {
  readiness_via: z.enum(['status', 'requirement', 'both']).optional(),
  cancel_via: z.enum(['direct', 'canceling']).optional(),
  cancel_settle_ms: z.number().int().min(0).optional(),
  disburse_via: z.enum(['direct', 'disbursing']).optional(),
};

/** The `--config file.json` shape: snake_case, every member optional. */
export const sandboxConfigSchema = z.object({
  organizations: z.array(organizationCodec.schema).optional(),
  signing_key: z.string().min(1).optional(),
  entity_id: z.string().min(1).optional(),
  token_ttl_seconds: z.number().int().min(1).optional(),
  admin_token: z.string().min(8).optional(),
  offer_filtering_timeout_ms: z.number().int().min(1).optional(),
  webhooks: z
    .object({
      retry_schedule_ms: z.array(z.number().int().min(0)).min(1).optional(),
      time_scale: z.number().positive().optional(),
      attempt_timeout_ms: z.number().int().min(1).optional(),
    })
    .optional(),
  auto: autoScenarioJsonSchema.optional(),
  ...behaviourJson,
});

/** Turns a parsed config file into options; absent members stay absent so defaults apply. */
export function optionsFromConfig(json: unknown): SandboxOptions {
  const c = parseWire(sandboxConfigSchema, json, 'Sandbox configuration');
  const options: SandboxOptions = {};
  if (c.organizations) options.organizations = c.organizations as OrganizationInput[];
  if (c.signing_key) options.signingKey = c.signing_key;
  if (c.entity_id) options.entityId = c.entity_id;
  if (c.token_ttl_seconds) options.tokenTtlSeconds = c.token_ttl_seconds;
  if (c.admin_token) options.adminToken = c.admin_token;
  if (c.offer_filtering_timeout_ms) options.offerFilteringTimeoutMs = c.offer_filtering_timeout_ms;
  if (c.webhooks) {
    options.webhooks = {
      ...(c.webhooks.retry_schedule_ms && { retrySchedule: c.webhooks.retry_schedule_ms }),
      ...(c.webhooks.time_scale && { timeScale: c.webhooks.time_scale }),
      ...(c.webhooks.attempt_timeout_ms && { attemptTimeoutMs: c.webhooks.attempt_timeout_ms }),
    };
  }
  if (c.auto) options.auto = c.auto;
  if (c.readiness_via) options.readinessVia = c.readiness_via;
  if (c.cancel_via) options.cancelVia = c.cancel_via;
  if (c.cancel_settle_ms !== undefined) options.cancelSettleMs = c.cancel_settle_ms;
  if (c.disburse_via) options.disburseVia = c.disburse_via;
  return options;
}
