export { createHostedPages, type HostedPages, isPagePath } from './handler.js';
export { escapeHtml } from './html.js';
export { PAGE_SESSION_HEADER } from './sessions.js';
