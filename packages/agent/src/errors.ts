// Typed errors: the service's refusals carry its wire codes; the client's own conditions have local codes.

/**
 * The codes the service sends (lower snake, as on its wires). The list is open: a newer service may send a
 * code this version does not name, and it still arrives as a string.
 */
export type ServiceCode =
  | 'invalid_input'
  | 'invalid_lines'
  | 'not_on_screen'
  | 'unauthorized'
  | 'invalid_credentials'
  | 'forbidden'
  | 'suspended'
  | 'not_an_mcp_connector'
  | 'agent_not_found'
  | 'screen_not_found'
  | 'conflict'
  | 'no_agent'
  | 'table_not_found'
  | 'connector_revoked'
  | 'limit_exceeded'
  | 'rate_limited'
  | 'storage_full'
  | 'storage_unavailable'
  | 'internal_error'
  | (string & {});

/** Codes of conditions this client detects itself. */
export type LocalCode =
  | 'ABORTED'
  | 'DEADLINE_PASSED'
  | 'CONNECTION_FAILED'
  | 'UNEXPECTED_ANSWER'
  | 'INVALID_ARGUMENT'
  | 'CLOSED';

/** Base class of every error this package throws; `code` is stable, `message` may be reworded. */
export class ScreenServiceError extends Error {
  readonly code: ServiceCode | LocalCode;
  constructor(code: ServiceCode | LocalCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * The service refused a call: `code` is its wire code, `status` the HTTP status when the refusal came as one,
 * `field` the argument at fault, `details` extra data (the parser's diagnostics for `invalid_lines`).
 *
 * @example
 * ```ts
 * try { await svc.show('choose "Lunch?" Soup'); }
 * catch (e) { if (e instanceof ServiceRefusedError && e.code === 'invalid_lines') console.error(e.message); }
 * ```
 */
export class ServiceRefusedError extends ScreenServiceError {
  readonly status: number | undefined;
  readonly field: string | undefined;
  readonly details: unknown;
  constructor(
    code: ServiceCode,
    message: string,
    extra: { status?: number; field?: string; details?: unknown; cause?: unknown } = {},
  ) {
    super(code, message, { cause: extra.cause });
    this.status = extra.status;
    this.field = extra.field;
    this.details = extra.details;
  }
}

/** The credential was refused (HTTP 401, or 403 for a suspended or wrong-kind connection): retrying will not help. */
export class AuthError extends ServiceRefusedError {}

/** Too many calls (HTTP 429); `retryAfterSeconds` when the service said. Waits retry these by themselves. */
export class RateLimitedError extends ServiceRefusedError {
  get retryAfterSeconds(): number | undefined {
    const d = this.details as { retryAfterS?: unknown } | undefined;
    return typeof d?.retryAfterS === 'number' ? d.retryAfterS : undefined;
  }
}

/** The caller's `AbortSignal` ended the wait; the screen was withdrawn. `reason` is the signal's reason. */
export class AbortedError extends ScreenServiceError {
  readonly reason: unknown;
  constructor(message: string, reason: unknown) {
    super('ABORTED', message, { cause: reason });
    this.reason = reason;
  }
}

/** The deadline passed with no answer and no `default` was given; the screen was withdrawn. */
export class DeadlinePassedError extends ScreenServiceError {
  constructor(message: string) {
    super('DEADLINE_PASSED', message);
  }
}

/** The service could not be reached (a call other than a wait, which retries until it gets through). */
export class ConnectionError extends ScreenServiceError {
  constructor(message: string, cause: unknown) {
    super('CONNECTION_FAILED', message, { cause });
  }
}

/** An answer did not have the shape the screen promises (a newer or misbehaving service). */
export class UnexpectedAnswerError extends ScreenServiceError {
  constructor(message: string) {
    super('UNEXPECTED_ANSWER', message);
  }
}

/** The call was misused (an empty option list, a bad id): fix the code. */
export class InvalidArgumentError extends ScreenServiceError {
  constructor(message: string, cause?: unknown) {
    super('INVALID_ARGUMENT', message, { cause });
  }
}

/** The client was closed with `close()`. */
export class ClosedError extends ScreenServiceError {
  constructor() {
    super('CLOSED', 'This client was closed; connect again.');
  }
}
