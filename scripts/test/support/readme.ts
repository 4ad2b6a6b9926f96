/** The README's shell blocks, by the section they are in. */
import { readFileSync } from 'node:fs';

export function readmeBlocks(file: string): { section: string; lines: string[] }[] {
  const blocks: { section: string; lines: string[] }[] = [];
  let section = '';
  let current: string[] | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (current) {
      if (line.trim() === '```') {
        blocks.push({ section, lines: current });
        current = undefined;
      } else current.push(line);
    } else if (/^##+ /.test(line)) section = line.replace(/^#+ /, '');
    else if (line.trim() === '```sh') current = [];
  }
  return blocks;
}

/** The command lines (no comments, no blank lines) of the `sh` blocks in a section. */
export function commandsIn(file: string, section: string): string[] {
  return readmeBlocks(file)
    .filter((block) => block.section === section)
    .flatMap((block) => block.lines)
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
