// @screen-service/registry/agents: the person's agents, their names, looks, status and who may reach them.
// Every export here is public API.
export { freeHandle, profileNaming } from './agent-naming.js';
export {
  type AddAgentInput,
  addAgent,
  MAX_AGENTS_PER_ACCOUNT,
  makeDefaultAgent,
  removeAgent,
  reorderAgents,
} from './agent-order.js';
export {
  type AgentStatus,
  type AgentView,
  CONNECTED_WINDOW_MS,
  colorFromName,
  deriveStatus,
  HANDLE_PATTERN,
  slugify,
  toAgentView,
} from './agent-status.js';
export { type AgentRef, pickAgent, toAgentRef } from './agent-view.js';
export { cleanCardSummary, MAX_CARD_SKILLS } from './card-summary.js';
export {
  type AgentListItem,
  type BindAgentInput,
  type ConnectionView,
  type CreateAgentInput,
  createPersonAgents,
  type PersonAgents,
  type PersonAgentsOptions,
  type UpdateAgentInput,
} from './person-agents.js';
export {
  type AgentAccess,
  dropMentions,
  hasMention,
  isOwnerOnlyTap,
  parseSessionKey,
  sessionKey,
  sharedAgentRefusal,
  threadAccess,
} from './shared-access.js';
export { grantedView, ownedFields, type SharedFields } from './shared-rows.js';
export { previewOf } from './thread-preview.js';
export { agentColor, agentName, connectorKind, hostName, remoteRef, theme } from './validate.js';
