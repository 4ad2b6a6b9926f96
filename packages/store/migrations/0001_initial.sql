-- bnpl-kit store, initial schema. Every table is prefixed `bnpl_` so the kit can share a database
-- (and a schema) with the market's own `users` and `orders` tables without colliding.
-- Runs unchanged on PostgreSQL (13+) and PGlite.

-- Market users as the reference servers know them. `credify_id` is the service user ID (WIRE §4).
CREATE TABLE bnpl_users (
  id                 text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  credify_id         text UNIQUE,
  profile            jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(profile) = 'object'),
  custom_claims      jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(custom_claims) = 'object'),
  -- SHA-256 of the session token: a database dump must not hand out working sessions.
  session_token_hash text UNIQUE,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

-- One commitment per user and scope (WIRE §7); pushing claims again replaces it.
CREATE TABLE bnpl_commitments (
  user_id    text NOT NULL REFERENCES bnpl_users (id) ON DELETE CASCADE,
  scope_name text NOT NULL,
  commitment text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, scope_name)
);

CREATE TABLE bnpl_orders (
  -- The service-side order ID.
  id                  text PRIMARY KEY,
  -- UNIQUE is what makes order creation idempotent: two concurrent creates cannot both insert.
  reference_id        text NOT NULL UNIQUE,
  -- numeric, never float: VND amounts go up to 15 digits (WIRE §1).
  total_value         numeric(15, 0) NOT NULL CHECK (total_value >= 0),
  currency            text NOT NULL,
  order_lines         jsonb NOT NULL CHECK (jsonb_typeof(order_lines) = 'array'),
  status              text NOT NULL
                      CHECK (status IN ('PENDING', 'APPROVED', 'DISBURSING', 'CANCELING', 'PAID', 'CANCELED')),
  request_fingerprint text NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);

-- Every status an order took, and why (`create`, `webhook:<eventId>`, `reconcile`, …).
CREATE TABLE bnpl_order_status_history (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id    text NOT NULL REFERENCES bnpl_orders (id) ON DELETE CASCADE,
  from_status text, -- NULL for the status the order was created with
  to_status   text NOT NULL,
  source      text NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bnpl_order_status_history_order ON bnpl_order_status_history (order_id, id);

-- Webhook event IDs, recorded in the same transaction as the event's effect. The primary key is
-- the dedupe: a concurrent second delivery waits on the index and then sees a conflict.
CREATE TABLE bnpl_processed_events (
  event_id     text PRIMARY KEY,
  type         text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now()
);

-- Outbox of work that must survive a crash (e.g. a disbursement). Workers claim rows with
-- FOR UPDATE SKIP LOCKED and hold them until `locked_until`; an expired lock means the worker died.
CREATE TABLE bnpl_jobs (
  id           text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  kind         text NOT NULL,
  payload      jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Enqueueing the same logical job twice (a redelivered webhook) inserts it once.
  dedupe_key   text NOT NULL UNIQUE,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts     integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 10 CHECK (max_attempts > 0),
  run_at       timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  locked_by    text,
  last_error   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bnpl_jobs_due ON bnpl_jobs (run_at) WHERE status = 'pending';
CREATE INDEX bnpl_jobs_expired ON bnpl_jobs (locked_until) WHERE status = 'running';
