/**
 * What logs may show of a database URL. A module of its own, without `pg`: the store's index
 * exports it, and a server on PGlite must not load the PostgreSQL driver to print where it is.
 */

/** The URL without its password, for logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}
