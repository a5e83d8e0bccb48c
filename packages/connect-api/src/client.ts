// Entry of `@screen-service/connect-api/client`: the host client library (no Express). Every export is public.
export { HostApiError, type HostClientLocalCode } from './client/errors.js';
export {
  type CardSummary,
  connectUrlOf,
  createHostClient,
  type HostClient,
  type HostClientOptions,
  type PairRequest,
  type ReplyRequest,
} from './client/host-client.js';
export {
  brokenNow,
  DEFAULT_HEARTBEAT_MS,
  type HostRunOptions,
  type HostTurn,
  pausedCard,
  type RunningHost,
  runHost,
  type TurnContext,
  type TurnReply,
} from './client/host-runner.js';
export {
  type MessageStream,
  type MessageStreamOptions,
  openMessageStream,
  type StreamStop,
} from './client/message-stream.js';
export { type HostState, readHostState, writeHostState } from './client/state-file.js';
export {
  type HostTool,
  type HostToolResult,
  hostTablesTool,
  hostTablesToolDescription,
} from './client/tables-tool.js';
