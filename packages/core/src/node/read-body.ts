/**
 * Reads a whole `IncomingMessage` body into bytes with a cap, without a web stream. Past the cap it
 * rejects with `payload_too_large` and keeps discarding the rest (so the answer still goes out); the
 * connection then closes lingering (linger.ts), so a client still uploading reads the 413. A disconnect
 * mid-body rejects instead of leaving the read pending, and nothing else reading the same request
 * can stall it.
 */
import type { IncomingMessage } from 'node:http';
import { tooLarge } from './body-stream.js';
import { lingerOnClose } from './linger.js';

export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = req.headers['content-length'];
  // Refused before reading a byte: Node discards the unread body itself after the answer.
  if (declared !== undefined && Number(declared) > maxBytes) {
    lingerOnClose(req.socket);
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Listeners are inline and `on`, not `once`: each fires at most once that matters (`settled`
    // guards the rest), and a `once` wrapper or a named closure per listener costs on every request.
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (settled) {
        // The rest is dropped; the connection closes after the answer, lingering (linger.ts).
        return;
      }
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      settled = true;
      lingerOnClose(req.socket);
      reject(tooLarge(maxBytes));
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    // Another consumer attached after us (a web stream built from the same request) pauses the
    // request when its own queue is full; this read must still reach `end`.
    req.on('pause', () => {
      if (!settled) req.resume();
    });
    req.on('close', () => {
      if (settled || req.readableEnded) return;
      settled = true;
      reject(new DOMException('The client disconnected before sending the whole body', 'AbortError'));
    });
  });
}
