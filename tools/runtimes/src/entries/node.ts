import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener } from '@bnpl-kit/core/node';
import { handle } from '../app.js';

const server = createServer(createNodeListener(handle));
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })),
);
