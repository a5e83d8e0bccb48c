// @screen-service/mcp-server public API. Every export here is public; nothing else is.

export { createHostCheck } from '@screen-service/http-kit';
export { authenticate, bearerChallenge, resourceMetadataUrl } from './bearer-auth.js';
export {
  type ConnectDispatcherOptions,
  connectDispatcher,
  type DispatchContext,
  type Dispatcher,
  REQUEST_CANCELLED,
} from './dispatcher.js';
export { type ToolErrorResult, toToolError } from './errors.js';
export { buildGuideTexts, type GuideTexts, SPEC_LABEL } from './guide-texts.js';
export {
  ALIAS_PREFIX,
  exposeSecuritySchemes,
  INVOCATION_TEXTS,
  resourceAliasMeta,
  SECURITY_SCHEMES,
  SVC_SCOPE,
  type ThreadToolName,
  toolAliasMeta,
} from './host-aliases.js';
export { checkJsonRpcBody, type JsonRpcBody, MAX_BATCH } from './json-rpc-body.js';
export {
  createMcpHandler,
  MCP_RATE_DEFAULTS,
  type McpHandler,
  type McpHandlerOptions,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './mcp-handler.js';
export { createMcpRouter, type McpRouterOptions } from './mcp-router.js';
export { typeArraysToAnyOf } from './portable-schema.js';
export { MODERN_PROTOCOL_VERSIONS, SERVED_PROTOCOL_VERSIONS } from './protocol-server.js';
export { IMAGE_CDN_META, ImageCdnError, imageCdnOrigin, prepareScreenHtml } from './screen-html.js';
export {
  createSvcMcpServer,
  GUIDE_RESOURCE_URI,
  SCREEN_APP_MIME,
  type ScreenApp,
  type SvcMcpServerOptions,
} from './svc-mcp-server.js';
export { registerTablesTool, tablesToolDescription } from './tables-tool.js';
export {
  principalOf,
  registerThreadTools,
  SCREEN_RESOURCE_URI,
  type ToolContext,
  type ToolDeps,
} from './tools.js';
export { registerWithdrawTool, WITHDRAW_TOOL_DESCRIPTION } from './withdraw-tool.js';
