/**
 * The little XML the JUnit report needs: escaped text and attributes, elements with optional text.
 * Written here rather than pulled in (xmlbuilder2 brought five packages into every CLI install for
 * one report). XML 1.0 cannot carry some characters at all, not even as references, so those are
 * replaced by U+FFFD instead of producing a file CI systems refuse to parse.
 */

// Outside XML 1.0's Char production: C0 controls but tab/LF/CR, lone surrogates, U+FFFE, U+FFFF.
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
// In attributes, whitespace other than a space would be normalised away by the parser; keep it.
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

export function escapeXmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

export function escapeXmlAttribute(value: string): string {
  return value.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}

export type XmlAttributes = Record<string, string | number>;

export interface XmlElement {
  name: string;
  attributes: XmlAttributes;
  children?: XmlElement[];
  text?: string;
}

function openTag(element: XmlElement): string {
  const attributes = Object.entries(element.attributes)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
  return `<${element.name}${attributes}`;
}

function render(element: XmlElement, indent: string): string {
  const open = `${indent}${openTag(element)}`;
  if (element.text !== undefined) return `${open}>${escapeXmlText(element.text)}</${element.name}>`;
  const children = element.children ?? [];
  if (children.length === 0) return `${open}/>`;
  const inner = children.map((child) => render(child, `${indent}  `)).join('\n');
  return `${open}>\n${inner}\n${indent}</${element.name}>`;
}

/** A whole document: declaration, then the root element, indented by two spaces per level. */
export function xmlDocument(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${render(root, '')}\n`;
}
