// Wire errors of the management API (doc2 "Errors"): `{"error": "<code>", "message", "field"?}` bodies.
// Statuses come from the HTTP kit's one table (ADR 0095); doc2's spellings from the host API's alias list.
import { DOC2_CODE_ALIASES } from '@screen-service/connect-api';
import { type HttpErrorBody, toHttpError } from '@screen-service/http-kit';
import type { ServiceErrorCode } from '@screen-service/registry/kernel';

/** Codes this API answers with (doc2's list, `invalid_<field>` for bad input, the shared table's codes). */
export type ManagementErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'connector_not_found'
  | 'connector_revoked'
  | 'already_added'
  | 'invalid_action'
  | 'invalid_body'
  | `invalid_${string}`
  | 'internal_error'
  | (string & {});

/**
 * doc2's spellings for this API: the host API's aliases plus `already_added` (doc2: "profile already
 * registered"), which the host API's `pair` spells `profile_already_added`.
 */
export const MANAGEMENT_CODE_ALIASES: Readonly<Partial<Record<ServiceErrorCode, ManagementErrorCode>>> =
  Object.freeze({ ...DOC2_CODE_ALIASES, PROFILE_ALREADY_ADDED: 'already_added' });

export interface ManagementWireError {
  status: number;
  body: HttpErrorBody & { error: ManagementErrorCode };
}

/**
 * Maps an error from the rules (or the body parser) to doc2's status and code: `INVALID_INPUT` on field
 * `name` becomes `invalid_name` (400), `AGENT_NOT_FOUND` becomes `not_found` (404), and so on.
 *
 * @example
 * ```ts
 * toManagementError(new ServiceError('FORBIDDEN', '...')); // { status: 403, body: { error: 'forbidden', ... } }
 * ```
 */
export function toManagementError(err: unknown): ManagementWireError {
  const e = toHttpError(err, { bodyLimit: '64 KB' });
  if (e.code === null) return { status: e.status, body: e.body };
  const error =
    e.code === 'INVALID_INPUT'
      ? `invalid_${(e.body.field ?? 'body').replace(/[^a-z0-9_]/gi, '_')}`
      : (MANAGEMENT_CODE_ALIASES[e.code] ?? e.body.error);
  return { status: e.status, body: { ...e.body, error } };
}
