import { handle } from '../app.js';

declare const Deno: { serve(options: object, handler: (request: Request) => Promise<Response>): unknown };

Deno.serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    onListen: ({ port }: { port: number }) => console.log(JSON.stringify({ port })),
  },
  handle,
);
