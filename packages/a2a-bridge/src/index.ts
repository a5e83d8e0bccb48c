// Public API of @screen-service/a2a-bridge: every export here is public and follows semver.
export { type Answer, answerFor, applyEvent, emptyTaskView, endsTurn, type TaskView } from './answer.js';
export { type SplitAnswer, splitAnswer } from './answer-split.js';
export {
  type Bridge,
  type BridgeAgent,
  type BridgeOptions,
  createBridge,
  type StepResult,
} from './bridge.js';
export {
  type AgentCardInfo,
  type CardSkill,
  cardUrlFor,
  type FetchAgentCardOptions,
  fetchAgentCard,
  isGraphExtension,
  type ProtocolVersion,
  type ReadAgentCardOptions,
  readAgentCard,
} from './card.js';
export { type CliIo, EXIT, HELP, runCli } from './cli-run.js';
export { type A2AClient, type A2AClientOptions, createA2AClient } from './client.js';
export { codec03, codec10, codecFor, type WireCodec } from './codec.js';
export { addCommand, type BindOptions, type BindResult, pairCommand } from './commands/bind.js';
export { type CardCommandOptions, cardCommand, formatCard } from './commands/card.js';
export { type BridgeHome, defaultHomeDir, openHome } from './commands/home.js';
export { formatAgents, removeCommand } from './commands/list.js';
export { type RunOptions, type RunStop, runCommand, webhookCard } from './commands/run.js';
export { A2A_RPC_CODES, BridgeError, type BridgeErrorCode } from './errors.js';
export {
  HostServiceLink,
  type HostServiceLinkOptions,
  inboundRowOf,
  MAX_ANSWER_CHARS,
  MAX_READS_IN_A_ROW,
  type StreamRow,
} from './host-link.js';
export type { A2AEvent, Artifact, Message, Part, Task, TaskState } from './model.js';
export { TURN_END_STATES } from './model.js';
export { Outbox } from './outbox.js';
export { callRpc, type RpcTarget, streamRpc } from './rpc.js';
export {
  FileServiceLink,
  type InboundRow,
  MemoryServiceLink,
  type OutboundPost,
  type PostKind,
  type ServiceLink,
} from './service-link.js';
export {
  type AgentState,
  type BridgeState,
  type FollowUp,
  type ServiceState,
  StateFile,
  type TurnState,
} from './state-file.js';
export {
  buildTurnMessage,
  type ChannelGuide,
  deriveMessageId,
  type TurnMessageInput,
} from './turn-message.js';
export {
  DELIVERY_HEADER,
  newWebhookSecret,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_S,
  signWebhookBody,
} from './webhook-signature.js';
export {
  DEFAULT_WEBHOOK_POLICY,
  runWebhookTurn,
  WEBHOOK_MAX_BACKOFF_MS,
  type WebhookAnswer,
  type WebhookPolicy,
  type WebhookTarget,
  type WebhookTurnBody,
  webhookBody,
} from './webhook-turn.js';
export { verifyWebhookSignature } from './webhook-verify.js';
