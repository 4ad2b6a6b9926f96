/**
 * The request body of an `IncomingMessage` as a web `ReadableStream`, byte for byte, with a size
 * cap and backpressure (the socket is paused while the consumer is behind). Past the cap the
 * stream errors with `payload_too_large` and the rest of the body is read and thrown away, so the
 * 413 can still be delivered; the connection then closes lingering (linger.ts), so a client still
 * uploading reads the 413 instead of a reset. A client that disconnects mid-body errors the stream instead of leaving it pending.
 */
import type { IncomingMessage } from 'node:http';
import type { KitError } from '../errors.js';
import { payloadTooLarge } from '../util/payload-too-large.js';
import { lingerOnClose } from './linger.js';

export function tooLarge(maxBytes: number): KitError {
  return payloadTooLarge(maxBytes);
}

export function nodeBodyStream(req: IncomingMessage, maxBytes: number): ReadableStream<Uint8Array> {
  let size = 0;
  let settled = false;
  const discard = () => {
    settled = true;
    // Keep the data flowing into the void so the response can still go out on this connection,
    // and let the close after it linger so that the client gets to read it.
    lingerOnClose(req.socket);
    req.resume();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (settled) {
            // The rest is dropped; the connection closes after the answer, lingering (linger.ts).
            return;
          }
          if (size > maxBytes) {
            controller.error(tooLarge(maxBytes));
            discard();
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        req.once('error', (error) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        });
        req.once('close', () => {
          if (settled || req.readableEnded) return;
          settled = true;
          controller.error(
            new DOMException('The client disconnected before sending the whole body', 'AbortError'),
          );
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        discard();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
