/**
 * Browser code both console pages share (inline, no bundle), spliced into each page's script after
 * it has declared `base` (where the admin API is, from that page's path). Hostile data reaches the
 * page through `textContent` and the nodes `el` builds only.
 */
export const CONSOLE_HELPERS_SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'bnpl-kit:sandbox-admin-token';
let token = sessionStorage.getItem(TOKEN_KEY) || '';

/** el('td', { class: 'x', data: { id } }, child, 'text', ...): children are nodes or plain text. */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  const p = props || {};
  if (p.class) node.className = p.class;
  if (p.title) node.title = p.title;
  if (p.data) for (const [k, v] of Object.entries(p.data)) node.dataset[k] = String(v);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function say(text, tone) {
  const box = $('message');
  box.textContent = text;
  box.dataset.tone = tone || 'info';
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { box.textContent = ''; }, 6000);
}

/** A call to the admin API with the token: the answer when it is a success, else an Error saying why. */
async function request(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = 'Bearer ' + token;
  const response = await fetch(base + path, {
    method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), cache: 'no-store',
  });
  if (response.status === 401) {
    $('token-section').hidden = false;
    throw new Error('The admin API wants the admin token');
  }
  if (!response.ok) {
    const problem = await response.json().catch(() => ({}));
    throw new Error(problem.detail || problem.title || 'HTTP ' + response.status);
  }
  return response;
}
`;
