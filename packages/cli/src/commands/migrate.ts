/**
 * `bnpl-kit migrate`: applies the store's pending migrations, for a deploy pipeline that migrates
 * before the new version starts. Safe to run from several places at once (the migrations take an
 * advisory lock) and to repeat (an up-to-date database applies nothing).
 */
import type { CommandModule } from '../index.js';
import { type DatabaseOptions, openDatabase, withDatabaseOptions } from './database.js';

export const migrateCommand: CommandModule = (program, io) => {
  withDatabaseOptions(program.command('migrate').description("apply the store's pending database migrations"))
    .option('--json', 'print { applied, recorded } as JSON')
    .action(async (options: DatabaseOptions & { json?: boolean }) => {
      const { store, where } = await openDatabase(options, false);
      try {
        const result = await store.migrate();
        if (options.json) {
          io.stdout(`${JSON.stringify(result, null, 2)}\n`);
          return;
        }
        io.stdout(
          result.applied.length === 0
            ? `${where}: up to date (${result.recorded.length} migrations recorded)\n`
            : `${where}: applied ${result.applied.join(', ')}\n`,
        );
      } finally {
        await store.close();
      }
    });
};
