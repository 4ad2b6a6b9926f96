/** Every check of the suite, in report order. A new check is one more entry in one of these lists. */
import type { IntegrationMode } from '@bnpl-kit/core';
import type { ContractCheck } from '../types.js';
import { browserChecks } from './browser.js';
import { concurrencyChecks } from './concurrency.js';
import { disburseInvoiceChecks } from './disburse-invoice.js';
import { domainSyntaxChecks } from './domain-syntax.js';
import { domainValueChecks } from './domain-values.js';
import { domainWebhookChecks } from './domain-webhook.js';
import { idempotencyKeyChecks } from './idempotency-keys.js';
import { methodChecks } from './methods.js';
import { offerConditionChecks } from './offer-conditions.js';
import { offerDecisionChecks } from './offer-decisions.js';
import { offerChecks } from './offers.js';
import { orderActionChecks } from './orders-actions.js';
import { orderCreateChecks } from './orders-create.js';
import { orderFieldChecks } from './orders-fields.js';
import { orderReconcileTableChecks } from './orders-reconcile-table.js';
import { orderStatusChecks } from './orders-status.js';
import { orderValidationChecks } from './orders-validation.js';
import { pathParameterChecks } from './path-parameters.js';
import { pushClaimsChecks } from './push-claims.js';
import { requestLimitChecks } from './request-limits.js';
import { serviceFailureChecks } from './service-failures.js';
import { serviceLifecycleChecks } from './service-lifecycle.js';
import { serviceStatusChecks } from './service-status.js';
import { webhookDeliveryPathChecks } from './webhook-delivery-paths.js';
import { webhookEffectChecks } from './webhook-effects.js';
import { webhookGeneratedChecks } from './webhook-generated.js';
import { webhookReadinessOrderChecks } from './webhook-readiness-order.js';
import { webhookReceiverChecks } from './webhook-receiver.js';
import { webhookStateChecks } from './webhook-state.js';
import { webhookStateTableChecks } from './webhook-state-table.js';
import { webhookVectorChecks } from './webhook-vectors.js';

export const contractChecks: readonly ContractCheck[] = [
  ...orderCreateChecks,
  ...orderValidationChecks,
  ...orderFieldChecks,
  ...orderStatusChecks,
  ...orderReconcileTableChecks,
  ...pathParameterChecks,
  ...methodChecks,
  ...serviceStatusChecks,
  ...orderActionChecks,
  ...webhookVectorChecks,
  ...webhookReceiverChecks,
  ...webhookStateChecks,
  ...webhookStateTableChecks,
  ...webhookReadinessOrderChecks,
  ...webhookDeliveryPathChecks,
  ...webhookGeneratedChecks,
  ...webhookEffectChecks,
  ...serviceLifecycleChecks,
  ...pushClaimsChecks,
  ...offerChecks,
  ...offerConditionChecks,
  ...offerDecisionChecks,
  ...idempotencyKeyChecks,
  ...disburseInvoiceChecks,
  ...serviceFailureChecks,
  ...requestLimitChecks,
  ...browserChecks,
  ...domainValueChecks,
  ...domainWebhookChecks,
  ...domainSyntaxChecks,
  ...concurrencyChecks,
];

/** The checks that apply to `mode`, optionally narrowed to IDs or ID prefixes (`webhook.`). */
export function checksFor(mode: IntegrationMode, only?: readonly string[]): ContractCheck[] {
  return selectChecks(contractChecks, mode, only);
}

/**
 * The checks of `mode` among `checks`, narrowed to `only` (IDs or ID prefixes). A selection that
 * names no check of the mode is a typo or a check that no longer exists, never an empty PASS: it throws.
 */
export function selectChecks(
  checks: readonly ContractCheck[],
  mode: IntegrationMode,
  only: readonly string[] = [],
): ContractCheck[] {
  const ofMode = checks.filter((check) => check.modes.includes(mode));
  const selects = (o: string, check: ContractCheck) => check.id === o || check.id.startsWith(o);
  const unknown = only.filter((o) => !ofMode.some((check) => selects(o, check)));
  if (unknown.length > 0)
    throw new Error(
      `--only ${unknown.join(' ')}: no ${mode} check has that ID or ID prefix (docs/conformance-matrix.md lists every check)`,
    );
  return only.length === 0 ? ofMode : ofMode.filter((check) => only.some((o) => selects(o, check)));
}

export {
  browserChecks,
  concurrencyChecks,
  disburseInvoiceChecks,
  domainSyntaxChecks,
  domainValueChecks,
  domainWebhookChecks,
  idempotencyKeyChecks,
  offerChecks,
  offerConditionChecks,
  offerDecisionChecks,
  orderActionChecks,
  orderCreateChecks,
  orderFieldChecks,
  orderStatusChecks,
  orderValidationChecks,
  pushClaimsChecks,
  requestLimitChecks,
  serviceFailureChecks,
  serviceLifecycleChecks,
  serviceStatusChecks,
  webhookDeliveryPathChecks,
  webhookEffectChecks,
  webhookGeneratedChecks,
  webhookReadinessOrderChecks,
  webhookReceiverChecks,
  webhookStateChecks,
  webhookStateTableChecks,
  webhookVectorChecks,
};
