/** SQLSTATE helpers; pg and PGlite both put the code on the thrown error's `code`. */
export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The constraint a violation names (pg: `constraint`), when the driver reports it. */
export function violatedConstraint(err: unknown): string | undefined {
  const constraint = (err as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}
