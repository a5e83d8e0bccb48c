// @screen-service/management-api public API. Every export here is public.
export {
  MANAGEMENT_CODE_ALIASES,
  type ManagementErrorCode,
  type ManagementWireError,
  toManagementError,
} from './errors.js';
export {
  createManagementRouter,
  MANAGEMENT_ACTIONS,
  type ManagementAction,
  type ManagementRouterOptions,
} from './management-router.js';
