/**
 * The service's public-key endpoint as the prior art's SDK called it before every webhook
 * verification (`GET /entity/public-key?entity_id=…`, answering `{ data: { signing: <PEM> } }`),
 * in a process of its own so that answering it is not charged to the verifier being measured.
 *
 *   public-key.ts <SPKI PEM>
 */
import { createServer } from 'node:http';
import { serveForParent } from './child.js';

const body = JSON.stringify({ success: true, data: { signing: process.argv[2] } });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
}).listen(0, '127.0.0.1');
await serveForParent(server);
