import { inspect } from 'node:util';

const REDACTED = '[secret]';

/**
 * A secret in clear, in memory, for the few steps between the request body and the vault (or
 * between the vault and the exchange adapter). Printing, logging or serialising it shows
 * `[secret]`; only `reveal()` gives the value.
 */
export class SecretValue {
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

  [inspect.custom](): string {
    return REDACTED;
  }
}
