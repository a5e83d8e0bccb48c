// OAuth refusals as data: the standard `error` codes of RFC 6749, 7591, 8707 and 7009 (their list and
// statuses are http-kit's, beside the other wire shapes), a sentence that says what is wrong and how to fix
// it, and the HTTP status the router answers with.
import { OAUTH_ERROR_STATUS, type OAuthErrorBody, type OAuthErrorCode } from '@screen-service/http-kit';

export type { OAuthErrorCode };

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
    this.status = options.status ?? OAUTH_ERROR_STATUS[error];
    this.redirect = options.redirect;
  }

  /** The JSON body of RFC 6749 section 5.2. */
  toJSON(): OAuthErrorBody {
    return { error: this.error, error_description: this.message };
  }
}

/** True when `err` is an OAuthError, optionally with the given code. */
export function isOAuthError(err: unknown, code?: OAuthErrorCode): err is OAuthError {
  return err instanceof OAuthError && (code === undefined || err.error === code);
}
