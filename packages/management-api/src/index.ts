// @screen-service/management-api public API. Every export here is public.
export {
  createManagementRouter,
  MANAGEMENT_ACTIONS,
  type ManagementAction,
  type ManagementRouterOptions,
} from './management-router.js';
