// @screen-service/management-tokens: management tokens and the management API use cases.
// Every export here is public API.
export {
  type AgentManagement,
  type AgentManagementOptions,
  type AgentsCaller,
  APP_ONLY_ACTIONS,
  type CreateInput as ManagementCreateInput,
  createAgentManagement,
  MANAGEMENT_UPDATE_FIELDS,
} from './agent-management.js';
export {
  createManagementTokens,
  MANAGEMENT_TOKEN_PREFIX,
  type ManagementTokenPrincipal,
  type ManagementTokens,
  type ManagementTokensOptions,
  type ManagementTokenView,
} from './management-tokens.js';
