/**
 * The logger the market handler (and the service client's telemetry) writes to. The shape is pino's (`logger.error(fields, message)`),
 * so a pino or pino-compatible logger can be passed as is; the default writes warnings and errors
 * to the console as JSON lines and drops the rest.
 */
export interface MarketLogger {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

function line(level: string, fields: Record<string, unknown>, message?: string): string {
  const { err, ...rest } = fields;
  const error =
    err instanceof Error
      ? { type: err.name, message: err.message, stack: err.stack }
      : err === undefined
        ? undefined
        : err;
  return JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...rest, err: error });
}

export const consoleLogger: MarketLogger = {
  debug() {},
  info() {},
  warn: (fields, message) => console.warn(line('warn', fields, message)),
  error: (fields, message) => console.error(line('error', fields, message)),
};

export const silentLogger: MarketLogger = { debug() {}, info() {}, warn() {}, error() {} };
