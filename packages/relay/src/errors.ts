// The relay's stable error codes and its one error class.

/** Stable codes of the relay's own errors. */
export type RelayErrorCode =
  /** A requestedSchema the form-mode rules do not allow (nested, arrays of objects, unknown types). */
  'UNSUPPORTED_SCHEMA';

/** Every error the relay raises: a stable `code` and a message that says what to fix. */
export class RelayError extends Error {
  constructor(
    readonly code: RelayErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RelayError';
  }
}
