/**
 * The kit's metrics (meter `@bnpl-kit/core`). Names and attributes are part of the documented
 * surface (packages/core/README.md): dashboards are built on them.
 */
import type { Attributes } from '@opentelemetry/api';
import { instrumentsOf } from './telemetry.js';

export const METRIC_NAMES = {
  webhookOutcomes: 'bnpl.webhook.outcomes',
  marketRequestDuration: 'bnpl.market.request.duration',
  serviceCallDuration: 'bnpl.service.call.duration',
  serviceCallErrors: 'bnpl.service.call.errors',
} as const;

/** Seconds, from a fast in-process answer to the service client's 8 s timeout and beyond. */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const instruments = instrumentsOf((meter) => ({
  webhookOutcomes: meter.createCounter(METRIC_NAMES.webhookOutcomes, {
    description: 'Webhook deliveries by outcome: processed, duplicate, or the error code answered',
  }),
  marketRequestDuration: meter.createHistogram(METRIC_NAMES.marketRequestDuration, {
    description: 'Time to answer a request to a market endpoint',
    unit: 's',
    advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
  }),
  serviceCallDuration: meter.createHistogram(METRIC_NAMES.serviceCallDuration, {
    description: 'Duration of calls to the BNPL service API, retries and token renewal included',
    unit: 's',
    advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
  }),
  serviceCallErrors: meter.createCounter(METRIC_NAMES.serviceCallErrors, {
    description: 'Calls to the BNPL service API that failed, by error code',
  }),
}));

export function recordWebhookOutcome(outcome: string, eventType: string | undefined): void {
  const attributes: Attributes = { 'bnpl.outcome': outcome };
  if (eventType !== undefined) attributes['bnpl.event_type'] = eventType;
  instruments().webhookOutcomes.add(1, attributes);
}

export function recordMarketRequest(route: string | undefined, status: number, seconds: number): void {
  instruments().marketRequestDuration.record(seconds, {
    'bnpl.route': route ?? 'unmatched',
    'http.response.status_code': status,
  });
}

export function recordServiceCall(operation: string, errorCode: string | undefined, seconds: number): void {
  const { serviceCallDuration, serviceCallErrors } = instruments();
  serviceCallDuration.record(seconds, { 'bnpl.operation': operation, 'bnpl.outcome': errorCode ?? 'ok' });
  if (errorCode !== undefined)
    serviceCallErrors.add(1, { 'bnpl.operation': operation, 'error.type': errorCode });
}
