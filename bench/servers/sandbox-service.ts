/**
 * The service behind the order-creation benchmark: the kit's sandbox as a standalone HTTP server
 * with one whitelisted organisation (app `bench`, API key `sk_bench_key`), in a process of its own
 * so its CPU is not charged to the server under test.
 */
import { startSandboxServer } from '@bnpl-kit/sandbox';

const service = await startSandboxServer({
  port: 0,
  organizations: [{ id: 'bench', name: 'Bench market', apiKeys: ['sk_bench_key'], whitelisted: true }],
});
process.on('SIGINT', () => process.exit(0));
process.send?.({ port: service.port });
