/**
 * The request body of an `IncomingMessage` as a web `ReadableStream`, byte for byte, with a size
 * cap and backpressure (the socket is paused while the consumer is behind). Past the cap the
 * stream errors with `payload_too_large` and the rest of the body is read and thrown away, so the
 * 413 can still be delivered on a healthy connection; a client that keeps going far beyond the cap
 * is cut off. A client that disconnects mid-body errors the stream instead of leaving it pending.
 */
import type { IncomingMessage } from 'node:http';
import type { KitError } from '../errors.js';
import { payloadTooLarge } from '../util/payload-too-large.js';

/** How much past the cap we keep discarding before closing the connection instead. */
const DISCARD_FACTOR = 4;

export function tooLarge(maxBytes: number): KitError {
  return payloadTooLarge(maxBytes);
}

export function nodeBodyStream(req: IncomingMessage, maxBytes: number): ReadableStream<Uint8Array> {
  let size = 0;
  let settled = false;
  const discard = () => {
    settled = true;
    // Keep the data flowing into the void so the response can still go out on this connection.
    req.resume();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (settled) {
            if (size > maxBytes * DISCARD_FACTOR) req.destroy();
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
