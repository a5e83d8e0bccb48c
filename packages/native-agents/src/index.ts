// @screen-service/native-agents public API. Every export here is public; nothing else is.

export { readChatStream, type StreamedAnswer } from './chat-stream.js';
export { type NativeService, type NativeStartOptions, startNativeAgents } from './compose.js';
export { ModelError, type NativeErrorCode } from './errors.js';
export {
  type ChatAnswer,
  type ChatMessage,
  checkModelConfig,
  completionsUrl,
  createModelClient,
  type ModelClient,
  type ModelClientOptions,
  type ModelConfig,
} from './model-client.js';
export {
  type AddNativeInput,
  createNativeAgents,
  MAX_INSTRUCTIONS_CHARS,
  type NativeAgents,
  type NativeAgentsOptions,
  type NativeInstructions,
  type NativeOffer,
  type StarterView,
} from './native-agents.js';
export { buildMessages, REPLY_RULES, SERVICE_LINE_PREFIX, splitScreen, systemPrompt } from './prompt.js';
export {
  createNativeRuntime,
  type NativeRuntime,
  type NativeRuntimeOptions,
  nativePrincipal,
  type RuntimeCore,
} from './runtime.js';
export {
  DEFAULT_TOKENS_PER_DAY,
  DEFAULT_TURNS_PER_MINUTE,
  type NativeSettings,
  readModelSettings,
} from './settings.js';
export { pickStarters, STARTERS, type StarterTemplate } from './starters.js';
export { TURN_LEASE_MS, type TurnLeases } from './turn-leases.js';
export {
  createLimits,
  createMemoryUsage,
  type LimitVerdict,
  type ModelLimits,
  type UsageMeter,
  utcDay,
} from './usage.js';
