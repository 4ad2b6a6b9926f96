-- The embedded sandbox service's own records (its orders, service users, claim tokens, tokens,
-- disbursements…), kept next to the market's so a restart leaves both sides consistent. One row
-- per record, as the sandbox serializes it: the sandbox is a simulator whose record shapes follow
-- the service it imitates, and a document per record keeps them out of the market's schema.
-- `namespace` separates sandboxes sharing one database (e.g. two reference servers in tests).
CREATE TABLE bnpl_sandbox_records (
  namespace  text NOT NULL,
  kind       text NOT NULL,
  id         text NOT NULL,
  body       jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (namespace, kind, id)
);
