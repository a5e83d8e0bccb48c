// @screen-service/http-kit: what every HTTP adapter shares: errors to status, guards, JSON depth.
// Every export here is public API.
export { type GuardSettings, readGuardSettings } from './guard-settings.js';
export { createHostCheck, hostGuard } from './host-check.js';
export {
  fromBodyParserError,
  fromStorageError,
  type HttpError,
  type HttpErrorBody,
  SERVICE_ERROR_CODES,
  SERVICE_ERROR_STATUS,
  STORAGE_FULL_MESSAGE,
  toHttpError,
  wireCode,
} from './http-errors.js';
export { JsonTooDeepError, jsonDepth, MAX_JSON_DEPTH, verifyJsonDepth } from './json-depth.js';
