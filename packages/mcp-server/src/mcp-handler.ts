// The HTTP face of the tool server: stateless streamable HTTP (POST in, application/json out) as a plain
// node:http handler, so a server can answer its hot route without a framework in front (ADR 0218).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Tables } from '@screen-service/core/tables';
import type { ThreadOps } from '@screen-service/core/threads';
import { createHostCheck } from '@screen-service/http-kit';
import type { ConnectionAuth } from '@screen-service/registry/hosts';
import {
  type LimitStore,
  memoryLimits,
  type RateLimiter,
  type RateLimitOptions,
} from '@screen-service/registry/kernel';
import { authenticate, resourceMetadataUrl } from './bearer-auth.js';
import { connectDispatcher, type Dispatcher } from './dispatcher.js';
import { errorBody, McpHttpError, RPC_INTERNAL_ERROR, RPC_PARSE_ERROR } from './errors.js';
import { parseJsonRpcBody } from './json-rpc-body.js';
import { createSvcMcpServer, type ScreenApp } from './svc-mcp-server.js';

/** Doc1's limits for bucket `mcp`: a token bucket per connection. */
export const MCP_RATE_DEFAULTS = { burst: 60, perMinute: 30 } as const;

export interface McpHandlerOptions {
  ops: ThreadOps;
  /** Serves `svc_tables` when given (`core.tables`). */
  tables?: Pick<Tables, 'call'>;
  /** The core's verifier built with `expectKind: 'mcp'` (and, with OAuth, an access-token resolver). */
  auth: ConnectionAuth;
  /** Public `{base_url}/functions/v1/svc-mcp`: the Host check and the 401's metadata URL come from it. */
  mcpUrl: string;
  /** More Host header values to accept (e.g. an internal name behind a proxy). */
  allowedHosts?: string[];
  /** Bucket `mcp` per connection; default burst 60, 30 per minute. Or a limiter of your own. */
  rateLimit?: RateLimitOptions | RateLimiter;
  /** Where the `mcp` bucket counts (shared by every instance on PostgreSQL); default in-process. */
  limits?: LimitStore;
  /** The in-chat renderer; without it `ui://svc/screen` is not served. */
  screenApp?: ScreenApp;
  /** Largest POST body; default 1 MiB. */
  maxBodyBytes?: number;
  version?: string;
  /** Unexpected errors (answered 500). */
  onError?: (err: unknown) => void;
}

const SUPPORTED = new Set(SUPPORTED_PROTOCOL_VERSIONS);

function isLimiter(v: McpHandlerOptions['rateLimit']): v is RateLimiter {
  return typeof v === 'object' && v !== null && typeof (v as RateLimiter).take === 'function';
}

function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  return /(^|[\s,])(application\/json|application\/\*|\*\/\*)(\s*[;,]|\s*$)/i.test(accept);
}

function isJsonContentType(ct: string | undefined): boolean {
  return ct !== undefined && ct.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        // Answer 413 instead of resetting the socket: stop keeping bytes, let Node discard the rest.
        resolve(null);
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A plain node:http request handler: it answers every request it is given (POST, or 405 for anything else). */
export type McpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/**
 * The tool server as a node:http handler for requests addressed to the MCP URL (the path is the caller's
 * business: give it only requests for `/functions/v1/svc-mcp`). One MCP server instance serves every request
 * (ADR 0060); each POST is verified, rate-limited per connection and answered as JSON. Express users mount
 * {@link createMcpRouter} instead; a server can also send its exact MCP path here before its framework
 * (ADR 0218), with the same handler behind both so the two share one dispatcher and one rate limit.
 *
 * @example
 * ```ts
 * const mcp = createMcpHandler({ ops: services.threadOps, auth: services.connectionAuth, mcpUrl });
 * http.createServer((req, res) => (req.url === '/functions/v1/svc-mcp' ? mcp(req, res) : app(req, res)));
 * ```
 */
export function createMcpHandler(options: McpHandlerOptions): McpHandler {
  const mcpUrl = options.mcpUrl.replace(/\/+$/, '');
  const metadataUrl = resourceMetadataUrl(mcpUrl);
  const hostAllowed = createHostCheck(mcpUrl, options.allowedHosts);
  const limiter = isLimiter(options.rateLimit)
    ? options.rateLimit
    : (options.limits ?? memoryLimits).rateLimiter('mcp', options.rateLimit ?? MCP_RATE_DEFAULTS);
  const burst = isLimiter(options.rateLimit)
    ? Number.POSITIVE_INFINITY
    : (options.rateLimit ?? MCP_RATE_DEFAULTS).burst;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  let dispatcher: Dispatcher | undefined;
  const ready = connectDispatcher(
    createSvcMcpServer({
      ops: options.ops,
      ...(options.tables ? { tables: options.tables } : {}),
      ...(options.version ? { version: options.version } : {}),
      ...(options.screenApp ? { screenApp: options.screenApp } : {}),
    }),
  ).then((d) => {
    dispatcher = d;
    return d;
  });

  return async (req, res) => {
    try {
      if (req.method !== 'POST') {
        throw new McpHttpError(
          'METHOD_NOT_ALLOWED',
          'This tool server is stateless: POST JSON-RPC messages; there is no event stream and no session to delete.',
          { headers: { allow: 'POST' } },
        );
      }
      if (!hostAllowed(req.headers.host)) {
        throw new McpHttpError(
          'HOST_NOT_ALLOWED',
          `Host ${req.headers.host ?? '(none)'} is not this service.`,
        );
      }
      const principal = await authenticate(options.auth, req.headers.authorization, metadataUrl);
      if (!acceptsJson(req.headers.accept)) {
        throw new McpHttpError(
          'NOT_ACCEPTABLE',
          'Not Acceptable: this server answers application/json; accept it.',
        );
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new McpHttpError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Unsupported Media Type: send Content-Type: application/json.',
        );
      }
      const version = req.headers['mcp-protocol-version'];
      if (typeof version === 'string' && !SUPPORTED.has(version)) {
        throw new McpHttpError(
          'INVALID_INPUT',
          `Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
        );
      }
      const text = await readBody(req, maxBody);
      if (text === null) {
        res.setHeader('connection', 'close');
        throw new McpHttpError('BODY_TOO_LARGE', `The body is larger than ${maxBody} bytes: send less.`);
      }
      const parsed = parseJsonRpcBody(text);
      if (!parsed.ok) {
        throw new McpHttpError(
          parsed.code === RPC_PARSE_ERROR ? 'INVALID_JSON' : 'INVALID_INPUT',
          parsed.message,
          {
            rpcCode: parsed.code,
          },
        );
      }
      if (parsed.requests > burst) {
        throw new McpHttpError(
          'RATE_LIMITED',
          `A batch of ${parsed.requests} calls is more than this connection's burst of ${burst} (bucket mcp); send at most ${burst} per request.`,
        );
      }
      // Each call of a batch is charged, not the request.
      const decision = await limiter.take(principal.connectorId, Math.max(1, parsed.requests));
      if (!decision.ok) {
        throw new McpHttpError(
          'RATE_LIMITED',
          `Too many calls on this connection (bucket mcp); retry in ${decision.retryAfterS} s.`,
          { headers: { 'retry-after': String(decision.retryAfterS) } },
        );
      }
      const closed = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) closed.abort();
      });
      const d = dispatcher ?? (await ready);
      const answers = await d.dispatch(parsed.messages, {
        authInfo: { token: 'verified', clientId: principal.connectorId, scopes: [], extra: { principal } },
        requestInfo: { headers: req.headers },
        signal: closed.signal,
      });
      if (closed.signal.aborted) return;
      if (parsed.requests === 0) {
        res.statusCode = 202;
        res.end();
        return;
      }
      // No ETag: nobody revalidates an answer (Express's res.send would hash every one).
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(parsed.batch ? answers : answers[0]));
    } catch (err) {
      if (err instanceof McpHttpError) {
        sendJson(res, err.status, err.body(), err.headers);
        return;
      }
      options.onError?.(err);
      if (!res.headersSent) {
        sendJson(res, 500, errorBody(RPC_INTERNAL_ERROR, 'Internal error on our side.', 'internal_error'));
      }
    }
  };
}
