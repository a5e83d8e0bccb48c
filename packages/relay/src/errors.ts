// The relay's stable error codes and its one error class.

/** Stable codes of the relay's own errors. */
export type RelayErrorCode =
  /** A requestedSchema the form-mode rules do not allow (nested, arrays of objects, unknown types). */
  | 'UNSUPPORTED_SCHEMA'
  /** The relay's options are wrong (no server to wrap, an unknown answer mode, a bad URL). */
  | 'INVALID_OPTIONS'
  /** The wrapped server could not be started or reached. */
  | 'SERVER_UNREACHABLE';

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
