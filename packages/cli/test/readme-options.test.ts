/**
 * packages/cli/README.md documents `certify` and `sandbox` with every option, as the commands define
 * them (description, choices, default): the README's generated tables are what the program says
 * now. `UPDATE_README=1 npx vitest run test/readme-options.test.ts` rewrites them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/index.js';
import { optionsTable, withOptionTables } from '../src/readme-options.js';

const README = new URL('../README.md', import.meta.url);
const DOCUMENTED = ['certify', 'sandbox'];

describe('the CLI README', () => {
  const program = buildProgram({ stdout: () => {}, stderr: () => {} });
  const commands = DOCUMENTED.map((name) => program.commands.find((c) => c.name() === name)!);

  it('lists every option of certify and sandbox as the program defines it', () => {
    const readme = readFileSync(README, 'utf8');
    const expected = withOptionTables(readme, commands);
    if (process.env.UPDATE_README === '1') writeFileSync(README, expected);
    expect(readme).toBe(expected);
  });

  it('renders each option with its flags, description, choices and default', () => {
    const certify = optionsTable(commands[0]!);
    expect(certify).toContain('| `--mode <mode>` | integration mode (basic or data-sharing). Required. |  |');
    expect(certify).toContain(
      '| `--sandbox-port <port>` | port of the sandbox service (0 picks a free one). | `4010` |',
    );
    expect(certify).toMatch(/\| `--start-command <command>` \| .+ Not with `--restart-command`\. \|/);
    for (const option of commands.flatMap((c) => c.options))
      expect(withOptionTables(readFileSync(README, 'utf8'), commands)).toContain(`\`${option.flags}\``);
  });
});
