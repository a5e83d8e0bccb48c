// @screen-service/mcp-server public API. Every export here is public; nothing else is.

export { createHostCheck } from '@screen-service/http-kit';
export { authenticate, resourceMetadataUrl } from './bearer-auth.js';
export {
  type ConnectDispatcherOptions,
  connectDispatcher,
  type DispatchContext,
  type Dispatcher,
  REQUEST_CANCELLED,
} from './dispatcher.js';
export {
  errorBody,
  type McpErrorBody,
  McpHttpError,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_REQUEST,
  RPC_PARSE_ERROR,
  RPC_SERVER_REFUSAL,
  type ToolErrorResult,
  toToolError,
} from './errors.js';
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
export {
  type BodyParse,
  INVALID_REQUEST,
  MAX_BATCH,
  PARSE_ERROR,
  parseJsonRpcBody,
} from './json-rpc-body.js';
export {
  createMcpHandler,
  MCP_RATE_DEFAULTS,
  type McpHandler,
  type McpHandlerOptions,
} from './mcp-handler.js';
export { type PlainMiddleware, withMcpLane } from './mcp-lane.js';
export { createMcpRouter, type McpRouterOptions } from './mcp-router.js';
export { IMAGE_CDN_META, ImageCdnError, imageCdnOrigin, prepareScreenHtml } from './screen-html.js';
export {
  createSvcMcpServer,
  GUIDE_RESOURCE_URI,
  SCREEN_APP_MIME,
  type ScreenApp,
  type SvcMcpServerOptions,
} from './svc-mcp-server.js';
export { registerTablesTool, tablesToolDescription } from './tables-tool.js';
export { principalOf, registerThreadTools, SCREEN_RESOURCE_URI, type ToolDeps } from './tools.js';
