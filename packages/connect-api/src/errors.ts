// Wire errors of the host API (doc2 "Errors"): `{"error": "<code>", "message"}` bodies. Statuses come from
// the HTTP kit's one table (ADR 0095); this module only renames the few codes doc2 spells its own way.
import {
  fromBodyParserError,
  fromStorageError,
  SERVICE_ERROR_STATUS,
  wireCode,
} from '@screen-service/http-kit';
import { ServiceError, type ServiceErrorCode } from '@screen-service/registry/kernel';

/** Codes this API answers with: doc2's list, `invalid_<field>` for bad input, and the shared table's codes. */
export type ConnectErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'connector_not_found'
  | 'connector_revoked'
  | 'invalid_or_expired_code'
  | 'profile_already_added'
  | 'too_many_attempts'
  | 'invalid_action'
  | 'invalid_body'
  | `invalid_${string}`
  | 'internal_error'
  | (string & {});

/** Where doc2 names a condition differently from the shared wire code. */
export const DOC2_CODE_ALIASES: Readonly<Partial<Record<ServiceErrorCode, ConnectErrorCode>>> = Object.freeze(
  {
    SUSPENDED: 'forbidden',
    NOT_AN_MCP_CONNECTOR: 'forbidden',
    AGENT_NOT_FOUND: 'not_found',
    INVALID_CREDENTIALS: 'unauthorized',
  },
);

export interface WireError {
  status: number;
  /** `details`: the diagnostics of refused Screen Lines (`invalid_lines`), as data the host can show. */
  body: { error: ConnectErrorCode; message: string; details?: unknown };
}

/**
 * Maps an error from the rules (or a body parser) to doc2's status and code. `INVALID_INPUT` on field
 * `code` becomes `invalid_code` (400), and so on for each field.
 *
 * @example
 * ```ts
 * toWireError(new ServiceError('TOO_MANY_ATTEMPTS', '...')); // { status: 429, body: { error: 'too_many_attempts', ... } }
 * ```
 */
export function toWireError(err: unknown): WireError {
  const e = err instanceof ServiceError ? err : (fromBodyParserError(err, '64 KB') ?? fromStorageError(err));
  if (!e) {
    return { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } };
  }
  const error =
    e.code === 'INVALID_INPUT'
      ? `invalid_${(e.field ?? 'body').replace(/[^a-z0-9_]/gi, '_')}`
      : (DOC2_CODE_ALIASES[e.code] ?? wireCode(e.code));
  const body: WireError['body'] = { error, message: e.message };
  if (e.code === 'INVALID_LINES' && e.details !== undefined) body.details = e.details;
  return { status: SERVICE_ERROR_STATUS[e.code], body };
}
