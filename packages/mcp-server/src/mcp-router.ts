// The tool server as an Express router: a thin mount of the node:http handler (mcp-handler.ts).
import express, { type Router } from 'express';
import { createMcpHandler, type McpHandler, type McpHandlerOptions } from './mcp-handler.js';

/** Options of {@link createMcpRouter}: the handler's. */
export type McpRouterOptions = McpHandlerOptions;

/**
 * The tool server as an Express router; mount it at `/functions/v1/svc-mcp`. Give it options, or a handler
 * made by {@link createMcpHandler} that the server also calls directly (then both share one
 * rate limit).
 *
 * @example
 * ```ts
 * app.use('/functions/v1/svc-mcp', createMcpRouter({
 *   ops: services.threadOps,
 *   auth: services.connectionAuth,
 *   mcpUrl: `${baseUrl}/functions/v1/svc-mcp`,
 * }));
 * ```
 */
export function createMcpRouter(options: McpRouterOptions | McpHandler): Router {
  const handler = typeof options === 'function' ? options : createMcpHandler(options);
  const router = express.Router();
  // Any method at the mount's root: the handler answers POST and refuses the rest with 405.
  router.all('/', (req, res) => handler(req, res));
  return router;
}
