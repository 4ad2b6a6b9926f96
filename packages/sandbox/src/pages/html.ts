/**
 * Server-side HTML building for the hosted pages. Every interpolated value is escaped unless it is
 * already `SafeHtml` (made by this tag or by `raw` for fixed markup), so a market-supplied product
 * name or app name can never become markup.
 */

import escapeHtml from 'escape-html';

// The same escaping the demo shop uses (escape-html, as Express does): & < > " ' become entities.
export { escapeHtml };

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Markup the code itself wrote (never data). */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

type Interpolation = SafeHtml | string | number | bigint | boolean | null | undefined | Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${name}</p>\``: escapes `name`; arrays are joined; null, undefined and false vanish. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the two JavaScript line
 * separators are written as escapes, so no string can close the element or start a comment.
 */
export function jsonForScript(data: unknown): SafeHtml {
  const text = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new SafeHtml(text);
}
