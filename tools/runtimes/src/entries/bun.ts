import { handle } from '../app.js';

declare const Bun: { serve(options: object): { port: number } };

const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handle });
console.log(JSON.stringify({ port: server.port }));
