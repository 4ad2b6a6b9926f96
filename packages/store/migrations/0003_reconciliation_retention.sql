-- Reconciliation and retention (the worker entry, `@bnpl-kit/store/worker`).

-- When reconciliation last asked the service about this order: an order is asked at most once per
-- threshold, and claiming a batch sets it, so overlapping runs in several processes skip each other.
ALTER TABLE bnpl_orders ADD COLUMN reconciled_at timestamptz;
CREATE INDEX bnpl_orders_open ON bnpl_orders (updated_at)
  WHERE status IN ('PENDING', 'APPROVED', 'DISBURSING', 'CANCELING');

-- Retention deletes by age: processed event IDs and finished jobs older than the window.
CREATE INDEX bnpl_processed_events_age ON bnpl_processed_events (processed_at);
CREATE INDEX bnpl_jobs_done_age ON bnpl_jobs (updated_at) WHERE status = 'done';
