// The client library's one error: a refusal from the service (its status and doc2 code) or a local misuse.

/** Codes the client raises itself (the service's codes arrive as they are, e.g. `connector_revoked`). */
export type HostClientLocalCode = 'NETWORK' | 'INVALID_RESPONSE' | 'NOT_PAIRED' | 'STATE_FILE';

/**
 * Thrown by every client call. `status` is the HTTP status (0 for local failures); `code` is the service's
 * wire code (`unauthorized`, `invalid_or_expired_code`, ...) or a {@link HostClientLocalCode}.
 *
 * @example
 * ```ts
 * try { await client.pair({ code, remote_ref: 'main', host_name: 'box' }); }
 * catch (e) { if (e instanceof HostApiError && e.code === 'invalid_or_expired_code') askForANewCode(); }
 * ```
 */
export class HostApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'HostApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** True for answers a retry cannot fix (revoked, unauthorized, bad input); false for network and 5xx. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429 && this.status !== 408;
  }
}
