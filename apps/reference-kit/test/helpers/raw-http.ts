/** Raw HTTP/1.1 over a socket, for what fetch refuses to send (absolute-form targets, slow bodies). */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function parseRaw(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = (end < 0 ? text : text.slice(0, end)).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(head[0]?.split(' ')[1] ?? 0), headers, body: end < 0 ? '' : text.slice(end + 4) };
}

/**
 * Writes `text` and resolves with the answer once the server closes the connection (send
 * `Connection: close`, or let a server timeout close it).
 */
export function rawRequest(url: string, text: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(parseRaw(answer)));
  });
}
