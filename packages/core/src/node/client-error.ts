/**
 * Answers what Node's HTTP parser refuses before any handler runs (`server.on('clientError')`):
 * a request whose headers or body did not arrive within the server's timeouts (408), headers over
 * the size limit (431), bytes that are not HTTP (400). Node's own answer is a bare status line;
 * this one is a problem document like every other answer, then the connection is closed.
 */
import type { Duplex } from 'node:stream';
import { KitError, PROBLEM_CONTENT_TYPE } from '../errors.js';

function kitErrorOf(error: { code?: unknown }): KitError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new KitError('request_timeout', 'The request headers or body did not arrive in time');
    case 'HPE_HEADER_OVERFLOW':
      return new KitError('headers_too_large', 'The request headers are larger than this server accepts');
    default:
      return new KitError('validation_failed', 'The request is not valid HTTP/1.1');
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** A `clientError` listener for `http.createServer`. */
export function answerClientError(error: Error & { code?: unknown }, socket: Duplex): void {
  // Node's own rule: never write over a response that has started on this connection.
  const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) {
    socket.destroy();
    return;
  }
  const kitError = kitErrorOf(error);
  const body = JSON.stringify(kitError.toProblem());
  socket.end(
    `HTTP/1.1 ${kitError.status} ${REASONS[kitError.status] ?? 'Error'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  // The peer may never read; do not keep the socket for it.
  socket.once('finish', () => socket.destroy());
}
