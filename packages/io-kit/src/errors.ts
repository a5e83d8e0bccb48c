// The stable error codes of io-kit and one error class per condition a program turns into an exit code.

/** Every code an io-kit error carries. */
export type IoKitErrorCode = 'USAGE' | 'INVALID_ENV' | 'OUTBOUND_REFUSED';

/**
 * A command line a program cannot run: an unknown option, a missing value, a stray argument. Programs
 * print its message and exit with {@link UsageError.exitCode} (2, the usual code of a usage error).
 *
 * @example
 * ```ts
 * try { parseCommandLine(argv, { options }); } catch (e) { if (e instanceof UsageError) process.exitCode = e.exitCode; }
 * ```
 */
export class UsageError extends Error {
  readonly code = 'USAGE' satisfies IoKitErrorCode;
  /** The exit code of a usage error. */
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * An environment variable that does not pass its rule; the message starts with the variable's name
 * (`PORT: must be a whole number ...`), so the person knows what to change.
 */
export class EnvError extends Error {
  readonly code = 'INVALID_ENV' satisfies IoKitErrorCode;
  constructor(
    message: string,
    /** The variable that failed. */
    readonly variable: string,
  ) {
    super(message);
    this.name = 'EnvError';
  }
}

/**
 * An outbound request the guard refused (`@screen-service/io-kit/outbound`): not https, or a host that is
 * (or resolves to) a loopback, private, link-local or reserved address. The message says which and why.
 */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED' satisfies IoKitErrorCode;
  constructor(
    message: string,
    /** The scheme and host refused (no path: a push endpoint's path is a bearer capability). */
    readonly target: string,
  ) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}
