// OAuth refusals as data: the standard `error` codes of RFC 6749, 7591, 8707 and 7009, a sentence that
// says what is wrong and how to fix it, and the HTTP status the router answers with.

/** The `error` values this server sends. Stable: these are the protocol's own codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable'
  | 'server_error';

/**
 * A refusal with its standard code. `redirect` is set on `/authorize` errors that go back to the client
 * (`error`, `error_description`, `state`, `iss` on its redirect URI) instead of being shown to the person.
 *
 * @example
 * ```ts
 * throw new OAuthError('invalid_grant', 'This code was already used; start the sign-in again.');
 * ```
 */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  /** Where to send the browser with the error (authorize errors after the client and redirect URI checked out). */
  readonly redirect: string | undefined;
  constructor(
    error: OAuthErrorCode,
    description: string,
    options: { status?: number; redirect?: string } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = options.status ?? defaultStatus(error);
    this.redirect = options.redirect;
  }

  /** The JSON body of RFC 6749 section 5.2. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

function defaultStatus(error: OAuthErrorCode): number {
  if (error === 'invalid_client') return 401;
  if (error === 'access_denied') return 403;
  if (error === 'temporarily_unavailable') return 429;
  if (error === 'server_error') return 500;
  return 400;
}

/** True when `err` is an OAuthError, optionally with the given code. */
export function isOAuthError(err: unknown, code?: OAuthErrorCode): err is OAuthError {
  return err instanceof OAuthError && (code === undefined || err.error === code);
}
