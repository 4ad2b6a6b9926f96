/**
 * What a report needs of docs/protocol.md to link into it: the numbered sections with the anchors
 * GitHub gives their headings, and each rule's section and statement. The published package does not
 * carry the document, so `pnpm conformance-matrix` writes this index as
 * reporters/protocol-index.generated.json; contract-tests/test/html-report.test.ts fails when stale.
 */
import { parseProtocolRules } from './protocol-rules.js';

export interface ProtocolSection {
  /** `§4` */
  number: string;
  /** `Webhooks` */
  title: string;
  /** The heading's anchor on GitHub: `4-webhooks`. */
  anchor: string;
}

export interface ProtocolIndex {
  sections: ProtocolSection[];
  rules: Record<string, { section: string; text: string }>;
}

/** GitHub's heading anchor: lower case, punctuation and symbols dropped (`§`, `.`), spaces to `-`. */
export function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

export function parseProtocolIndex(doc: string): ProtocolIndex {
  const sections = [...doc.matchAll(/^## (§\d+)\. (.+)$/gm)].map((m) => ({
    number: m[1]!,
    title: m[2]!.trim(),
    anchor: githubAnchor(`${m[1]}. ${m[2]}`),
  }));
  const rules = Object.fromEntries(
    parseProtocolRules(doc).map((r) => [r.id, { section: r.section, text: r.text }]),
  );
  return { sections, rules };
}

export function formatProtocolIndex(index: ProtocolIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}
