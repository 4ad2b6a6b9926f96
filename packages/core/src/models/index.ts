export * from './config.js';
export * from './events.js';
export * from './money.js';
export * from './order.js';
export * from './order-line.js';
export * from './secret.js';
export * from './status.js';
export * from './wire.js';
