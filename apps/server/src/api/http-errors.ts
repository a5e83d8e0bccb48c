// ServiceError codes -> HTTP status and `{error, message, field}` bodies for the person's API.
import { ServiceError, type ServiceErrorCode } from '@screen-service/service-core';

const STATUS: Record<ServiceErrorCode, number> = {
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  INVALID_OR_EXPIRED_CODE: 401,
  FORBIDDEN: 403,
  SUSPENDED: 403,
  NOT_AN_MCP_CONNECTOR: 403,
  NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  SCREEN_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  NO_AGENT: 404,
  INVALID_INPUT: 400,
  INVALID_LINES: 400,
  NOT_ON_SCREEN: 400,
  EMAIL_TAKEN: 409,
  HANDLE_TAKEN: 409,
  CONFLICT: 409,
  CONNECTOR_REVOKED: 409,
  PROFILE_ALREADY_ADDED: 409,
  TOO_MANY_ATTEMPTS: 429,
  OAUTH_REQUEST_NOT_FOUND: 404,
  OAUTH_REQUEST_DECIDED: 409,
  OAUTH_REQUEST_EXPIRED: 410,
};

export interface HttpError {
  status: number;
  body: { error: string; message: string; field?: string };
}

/** Maps any thrown value; anything that is not a ServiceError is a 500 with a generic message. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof ServiceError) {
    return {
      status: STATUS[err.code] ?? 400,
      body: {
        error: err.code.toLowerCase(),
        message: err.message,
        ...(err.field ? { field: err.field } : {}),
      },
    };
  }
  return { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } };
}
