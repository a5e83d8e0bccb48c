// @screen-service/connect-api public API. Every export here is public.
export { CONNECT_ACTIONS, type ConnectHandlerOptions, createConnectRouter } from './connect-handler.js';
export { HOST_ACTIONS, type HostAction, type HostActionDeps, hostActions } from './host-actions.js';
export {
  createMessagesRouter,
  HOST_STREAM_KEEPALIVE_MS,
  HOST_STREAM_MAX_BUFFERED_BYTES,
  HOST_STREAMS_PER_CONNECTOR,
  type MessagesRouterOptions,
  streamCursor,
} from './messages-router.js';
export { TABLES_CALL_OPENAPI, TABLES_CALL_OPENAPI_PART } from './tables-openapi.js';
export { createTablesRouter, TABLES_BODY_LIMIT, type TablesRouterOptions } from './tables-router.js';
