/** Issue 10, reproduction 8: a DATABASE_URL the store cannot use is refused at start-up, by name. */
import { describe, expect, it } from 'vitest';
import type { KitError } from '../src/errors.js';
import { loadConfig } from '../src/models/config.js';

function problemsOf(databaseUrl: string): string[] {
  try {
    loadConfig({ DATABASE_URL: databaseUrl }, { integrationMode: 'basic' });
    return [];
  } catch (error) {
    return ((error as KitError).errors ?? []).map((e) => `${e.path}: ${e.message}`);
  }
}

describe('DATABASE_URL', () => {
  it('accepts postgres:// and postgresql:// URLs', () => {
    expect(problemsOf('postgres://u:p@db.example:5432/shop')).toEqual([]);
    expect(problemsOf('postgresql://db.example/shop?application_name=market')).toEqual([]);
  });

  it('refuses other schemes, saying which work', () => {
    const [problem] = problemsOf('mysql://u:p@db.example/shop');
    expect(problem).toMatch(/^DATABASE_URL: must be a PostgreSQL URL \(postgres:\/\/ or postgresql:\/\/\)/);
    expect(problem).toContain('"mysql:"');
  });

  it('names a malformed port instead of saying only "Invalid URL", never echoing the password', () => {
    const [bad] = problemsOf('postgres://u:hunter2@db.example:54x2/shop');
    expect(bad).toMatch(/^DATABASE_URL: has a malformed port/);
    const [high] = problemsOf('postgres://u:hunter2@db.example:99999/shop');
    expect(high).toBe('DATABASE_URL: has a port above 65535');
    for (const problem of [bad, high]) expect(problem).not.toContain('hunter2');
  });
});
