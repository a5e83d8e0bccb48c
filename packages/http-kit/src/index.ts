// @screen-service/http-kit: what every HTTP adapter shares: the request listener, the JSON body reader, the
// bearer token reader, one mapping from a service error to each protocol's error body, the action endpoint,
// the Host guard and JSON depth limits. Every export here is public API.
export {
  ACTION_BODY_LIMIT,
  type ActionContext,
  type ActionEndpointOptions,
  type ActionHandler,
  createActionEndpoint,
} from './action-endpoint.js';
export { bearerToken } from './bearer.js';
export {
  asServiceError,
  fromBodyParserError,
  fromStorageError,
  fromUrlError,
  STORAGE_FULL_MESSAGE,
  STORAGE_UNAVAILABLE_MESSAGE,
} from './error-sources.js';
export {
  type AnyWireCode,
  DOC2_CODE_ALIASES,
  type ErrorSpelling,
  type HostWireCode,
  MANAGEMENT_CODE_ALIASES,
  type ManagementWireCode,
  SERVICE_ERROR_CODES,
  SERVICE_ERROR_STATUS,
  spellCode,
  type WireCode,
  wireCode,
} from './error-table.js';
export { type GuardSettings, readGuardSettings } from './guard-settings.js';
export { createHostCheck, type HostGuardOptions, hostGuard, hostNotAllowed } from './host-check.js';
export {
  DEFAULT_RETRY_AFTER_S,
  type HttpError,
  type HttpErrorBody,
  type HttpErrorOptions,
  retryAfterOf,
  sendHttpError,
  toHttpError,
  writeJson,
  writeRefusal,
} from './http-errors.js';
export { type JsonBodyOptions, jsonBody, readJsonBody } from './json-body.js';
export { JsonTooDeepError, jsonDepth, MAX_JSON_DEPTH, verifyJsonDepth } from './json-depth.js';
export {
  type JsonRpcErrorBody,
  type JsonRpcHttpError,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_REQUEST,
  RPC_PARSE_ERROR,
  RPC_SERVER_REFUSAL,
  sendJsonRpcError,
  toJsonRpcError,
} from './json-rpc-errors.js';
export {
  OAUTH_ERROR_STATUS,
  type OAuthErrorBody,
  type OAuthErrorCode,
  type OAuthHttpError,
  sendOAuthError,
  toOAuthError,
} from './oauth-errors.js';
export {
  createServiceListener,
  type NodeHandler,
  type PrefixHandler,
  type ServiceListenerOptions,
  type Step,
} from './service-listener.js';
