/**
 * A secret value that cannot be printed by accident: `String(secret)`, `JSON.stringify`, template
 * literals and Node's `util.inspect` (console.log, pino) all show `[redacted]`. Code that really
 * needs the value calls `reveal()`, which is easy to grep for.
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');
const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [INSPECT](): string {
    return REDACTED;
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}
