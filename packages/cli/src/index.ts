/**
 * The `bnpl-kit` program. Each top-level command lives in `src/commands/<name>.ts` as a
 * `CommandModule`; adding a command is one file plus one line in `COMMANDS`.
 */
import { Command, CommanderError } from 'commander';
import { certifyCommand } from './commands/certify.js';
import { jobsCommand } from './commands/jobs.js';
import { keygenCommand } from './commands/keygen.js';
import { migrateCommand } from './commands/migrate.js';
import { sandboxCommand } from './commands/sandbox.js';
import { webhookCommand } from './commands/webhook.js';

/** Where a command writes. Injected so tests run the whole program in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/**
 * Registers one top-level command (and its subcommands). Exit statuses: 0 success, 1 a negative
 * verdict (throw `new CommanderError(1, code, message)` after printing it), 2 a usage or input
 * error (throw any other error: it is printed as `error: <message>`).
 */
export type CommandModule = (program: Command, io: CliIO) => void;

// biome-ignore format: one command per line keeps adding a command a one-line change here
const COMMANDS: CommandModule[] = [
  keygenCommand,
  webhookCommand,
  sandboxCommand,
  certifyCommand,
  jobsCommand,
  migrateCommand,
];

export function buildProgram(io: CliIO = processIO): Command {
  const program = new Command('bnpl-kit')
    .description('Keys, webhook signatures and checks for a market backend integrating a BNPL service.')
    .showHelpAfterError()
    // Settings made before `.command()` are inherited by every subcommand.
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  for (const register of COMMANDS) register(program, io);
  return program;
}

/** Runs the program on user arguments (without `node` and the script) and returns the exit status. */
export async function runCli(args: readonly string[], io: CliIO = processIO): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message. Its usage errors (unknown option, missing
      // argument…) exit 1 by default; 2 keeps them apart from "checked, and it is invalid".
      return error.code.startsWith('commander.') && error.exitCode !== 0 ? 2 : error.exitCode;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
