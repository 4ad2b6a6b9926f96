/**
 * The 413 problem, built in one place for the market's body reader and the Node bridge's.
 * `closeConnection`: the rest of the body stays unread, so the connection cannot carry another
 * request; saying so keeps a keep-alive client from reusing a socket the server is about to close.
 */
import { KitError } from '../errors.js';

export function payloadTooLarge(maxBytes: number, options: { closeConnection?: boolean } = {}): KitError {
  return new KitError('payload_too_large', `Request body exceeds the ${maxBytes}-byte limit`, {
    extensions: { max_body_bytes: maxBytes },
    ...(options.closeConnection === true && { headers: { connection: 'close' } }),
  });
}
