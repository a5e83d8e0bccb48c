// @screen-service/management-api public API. Every export here is public.
export {
  createManagementRouter,
  MANAGEMENT_ACTIONS,
  MANAGEMENT_RATE,
  type ManagementAction,
  type ManagementRouterOptions,
} from './management-router.js';
