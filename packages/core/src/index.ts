export * from './errors.js';
export * from './util/base64url.js';
export * from './signature/keys.js';
