// @screen-service/connect-api public API. Every export here is public.
export { CONNECT_ACTIONS, type ConnectHandlerOptions, createConnectRouter } from './connect-handler.js';
export { type ConnectErrorCode, toWireError, type WireError } from './errors.js';
