/** The logging surface the store uses; a pino logger fits it as is. */
export interface StoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: StoreLogger = {
  info() {},
  warn() {},
  error() {},
};
