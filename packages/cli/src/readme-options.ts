/**
 * The option tables of packages/cli/README.md, rendered from the commands' own definitions so the
 * README lists every option with its current description and default (test/readme-options.test.ts
 * fails when the README's generated blocks differ; `UPDATE_README=1` rewrites them).
 */
import type { Command, Option } from 'commander';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A markdown table of a command's options: flags, what it does, default. */
export function optionsTable(command: Command): string {
  const rows = command.options.map((option) => {
    const choices = option.argChoices ? ` (${option.argChoices.join(' or ')})` : '';
    const required = option.mandatory ? ' Required.' : '';
    // Set by `.conflicts()`, not in commander's published types.
    const conflictsWith = (option as Option & { conflictsWith?: string[] }).conflictsWith ?? [];
    const conflicts = conflictsWith.length
      ? ` Not with ${conflictsWith.map((name) => `\`--${name.replace(/[A-Z]/g, (c: string) => `-${c.toLowerCase()}`)}\``).join(', ')}.`
      : '';
    const fallback = option.defaultValue === undefined ? '' : `\`${String(option.defaultValue)}\``;
    return `| \`${cell(option.flags)}\` | ${cell(option.description)}${choices}.${required}${conflicts} | ${fallback} |`;
  });
  return ['| Option | What it does | Default |', '|---|---|---|', ...rows].join('\n');
}

export const generatedMarker = (name: string) =>
  [`<!-- generated:${name}-options -->`, `<!-- /generated:${name}-options -->`] as const;

/** The README with each `<!-- generated:<command>-options -->` block replaced by the command's table. */
export function withOptionTables(readme: string, commands: readonly Command[]): string {
  let out = readme;
  for (const command of commands) {
    const [open, close] = generatedMarker(command.name());
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`README has no ${open} … ${close} block`);
    out = `${out.slice(0, start + open.length)}\n${optionsTable(command)}\n${out.slice(end)}`;
  }
  return out;
}
