/**
 * The rules of docs/protocol.md, read from the document itself: every normative statement of §1 to
 * §8 ends with a bracketed ID (`[R-WH-04]`). Checks cite these IDs in their `rules`; the
 * conformance matrix (docs/conformance-matrix.md) is built from both.
 */

export interface ProtocolRule {
  /** `R-<AREA>-<nn>`, stable: never reused for another statement. */
  id: string;
  /** The section it is written in, e.g. `§4`. */
  section: string;
  /** The statement, as the document words it (markdown emphasis removed, shortened). */
  text: string;
}

export const RULE_ID = /\[(R-[A-Z]+-\d{2})\]/g;

const MAX_TEXT = 170;

/** Where the statement a tag closes starts: after the previous tag, a blank line, a bullet or a cell. */
function statementStart(doc: string, tagIndex: number, previousTagEnd: number): number {
  const before = doc.slice(0, tagIndex);
  const bounds = [
    previousTagEnd,
    before.lastIndexOf('\n\n') + 2,
    before.lastIndexOf('\n- ') + 3,
    before.lastIndexOf(' | ') + 3,
    before.lastIndexOf('\n| ') + 3,
  ];
  const numbered = /\n\d+\. [^\n]*$/.exec(before.slice(Math.max(0, tagIndex - 400)));
  if (numbered) bounds.push(tagIndex - numbered[0].length + numbered[0].indexOf('. ') + 2);
  return Math.max(...bounds.filter((b) => b >= 0 && b <= tagIndex));
}

function clean(text: string): string {
  const flat = text
    .replace(/\*\*|\*(prior art)\*/g, (m) => (m === '**' ? '' : '(prior art)'))
    .replace(/\s+/g, ' ')
    .replace(/^[\s;:,.)—-]+/, '')
    .replace(/[\s;:,(—-]+$/, '')
    .trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1).trimEnd()}…` : flat;
}

/** Every rule of the document, in document order; throws on an ID written twice. */
export function parseProtocolRules(doc: string): ProtocolRule[] {
  const rules: ProtocolRule[] = [];
  const seen = new Set<string>();
  let previousTagEnd = 0;
  for (const match of doc.matchAll(RULE_ID)) {
    const id = match[1]!;
    if (seen.has(id)) throw new Error(`docs/protocol.md: rule ${id} is written twice`);
    seen.add(id);
    const index = match.index;
    const heading = [...doc.slice(0, index).matchAll(/^#+ *(§\d+)/gm)].at(-1);
    const start = statementStart(doc, index, previousTagEnd);
    rules.push({ id, section: heading?.[1] ?? '(preamble)', text: clean(doc.slice(start, index)) });
    previousTagEnd = index + match[0].length;
  }
  return rules;
}
