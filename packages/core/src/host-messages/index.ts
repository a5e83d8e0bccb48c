// @screen-service/core/host-messages: the hosts' message transport (streams, turns, replies).
// Every export here is public API.
export {
  createHostTransport,
  type HostMessage,
  type HostStreamHandlers,
  type HostTransport,
  type HostTransportOptions,
  type ReplyInput,
  type ReplyResult,
  replyFingerprint,
  type StreamEnd,
  scopedIdemKey,
  type TurnInput,
  type TurnResult,
  WORKING_TTL_MS,
} from './host-transport.js';
export { createStatusWatch, type StatusWatch, type StatusWatchOptions } from './status-watch.js';
