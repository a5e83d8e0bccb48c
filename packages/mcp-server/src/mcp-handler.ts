// The HTTP face of the tool server: stateless streamable HTTP (POST in, application/json out) as a plain
// node:http handler, so a server answers its endpoint without a framework in front (ADRs 0218, 0242).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Tables } from '@screen-service/agent-tables';
import type { ThreadOps } from '@screen-service/core/threads';
import {
  bearerToken,
  createHostCheck,
  hostNotAllowed,
  readJsonBody,
  sendJsonRpcError,
} from '@screen-service/http-kit';
import type { ConnectionAuth } from '@screen-service/registry/hosts';
import {
  type LimitStore,
  memoryLimits,
  type RateLimiter,
  type RateLimitOptions,
  ServiceError,
} from '@screen-service/registry/kernel';
import { authenticate, bearerChallenge, resourceMetadataUrl } from './bearer-auth.js';
import { checkJsonRpcBody, type JsonRpcBody } from './json-rpc-body.js';
import { createProtocolServer, SERVED_PROTOCOL_VERSIONS } from './protocol-server.js';
import type { ScreenApp, SvcMcpServerOptions } from './svc-mcp-server.js';

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
  /** More tools, resources or prompts (tests register the conformance suite's fixtures; the product none). */
  register?: SvcMcpServerOptions['register'];
  /** Integrity check of an echoed `requestState`, for the tools `register` adds that mint one. */
  requestState?: SvcMcpServerOptions['requestState'];
  /** Largest POST body; default 1 MiB. */
  maxBodyBytes?: number;
  version?: string;
  /** Unexpected errors (answered 500). */
  onError?: (err: unknown) => void;
}

const SUPPORTED = new Set<string>(SERVED_PROTOCOL_VERSIONS);

function isLimiter(v: McpHandlerOptions['rateLimit']): v is RateLimiter {
  return typeof v === 'object' && v !== null && typeof (v as RateLimiter).take === 'function';
}

function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  return /(^|[\s,])(application\/json|application\/\*|\*\/\*)(\s*[;,]|\s*$)/i.test(accept);
}

/** JSON-RPC code of UnsupportedProtocolVersionError (MCP 2026-07-28, basic/lifecycle). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Answers a request whose `MCP-Protocol-Version` this server does not speak: 400 with
 * UnsupportedProtocolVersionError, its data listing the versions served and echoing the one asked for, so
 * a client can pick a mutual version and retry. The request's id is echoed when the body was one request.
 */
function answerUnsupportedVersion(res: ServerResponse, requested: string, body: JsonRpcBody): void {
  const only = body.batch ? undefined : (body.messages[0] as { id?: string | number });
  const supported = [...SERVED_PROTOCOL_VERSIONS];
  res.statusCode = 400;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: only?.id ?? null,
      error: {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: `Unsupported protocol version ${requested}; this server speaks ${supported.join(', ')}: send one of them in MCP-Protocol-Version.`,
        data: { supported, requested },
      },
    }),
  );
}

/**
 * Charges bucket `mcp` one call per `tools/call` in the body (doc1: calls per connection). The handshake,
 * lists, pings and notifications are free: a client that reconnects must not spend its tool budget on them.
 */
async function chargeToolCalls(limiter: RateLimiter, burst: number, key: string, calls: number) {
  if (calls === 0) return;
  if (calls > burst) {
    throw new ServiceError(
      'RATE_LIMITED',
      `A batch of ${calls} tool calls is more than this connection's burst of ${burst} (bucket mcp); send at most ${burst} per request.`,
    );
  }
  const decision = await limiter.take(key, calls);
  if (!decision.ok) {
    throw new ServiceError(
      'RATE_LIMITED',
      `Too many tool calls on this connection (bucket mcp); retry in ${decision.retryAfterS} s.`,
      { details: { retryAfterS: decision.retryAfterS } },
    );
  }
}

/** A plain node:http request handler: it answers every request it is given (POST, or 405 for anything else). */
export type McpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The tool server as a node:http handler for requests addressed to the MCP URL (the path is the caller's
 * business: give it only requests for `/functions/v1/svc-mcp`). Each POST is verified, rate-limited per
 * connection and served by the SDK in the era it speaks (2026-07-28 or the 2025 handshake, ADR 0263),
 * answered as JSON. Every refusal, our
 * own 500 included, is a JSON-RPC error without an id (http-kit's `sendJsonRpcError`). A server gives it its
 * path in its one request listener (http-kit's `createServiceListener`, ADR 0242); Express users may mount
 * {@link createMcpRouter} instead.
 *
 * @example
 * ```ts
 * const mcp = createMcpHandler({ ops: services.threadOps, auth: services.connectionAuth, mcpUrl });
 * http.createServer(createServiceListener({ steps: [], routes: { '/functions/v1/svc-mcp': mcp }, fallback: app, onError }));
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
  const protocol = createProtocolServer({
    mcpUrl,
    server: {
      ops: options.ops,
      ...(options.tables ? { tables: options.tables } : {}),
      ...(options.version ? { version: options.version } : {}),
      ...(options.screenApp ? { screenApp: options.screenApp } : {}),
      ...(options.register ? { register: options.register } : {}),
      ...(options.requestState ? { requestState: options.requestState } : {}),
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });

  return async (req, res) => {
    try {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        throw new ServiceError(
          'METHOD_NOT_ALLOWED',
          'This tool server is stateless: POST JSON-RPC messages; there is no event stream and no session to delete.',
        );
      }
      if (!hostAllowed(req.headers.host)) throw hostNotAllowed(req.headers.host);
      const principal = await authenticate(options.auth, req.headers.authorization);
      if (!acceptsJson(req.headers.accept)) {
        throw new ServiceError(
          'NOT_ACCEPTABLE',
          'Not Acceptable: this server answers application/json; accept it.',
        );
      }
      const raw = await readJsonBody(req, { limit: maxBody });
      const parsed = checkJsonRpcBody(raw);
      // A 2026-07-28 request (a per-request _meta claim) is the SDK's to judge, its version included;
      // a 2025 request with a version this server does not speak gets the same error here.
      const legacy = protocol.isLegacy(req.headers, raw);
      const version = req.headers['mcp-protocol-version'];
      if (legacy && typeof version === 'string' && !SUPPORTED.has(version)) {
        answerUnsupportedVersion(res, version, parsed);
        return;
      }
      await chargeToolCalls(limiter, burst, principal.connectorId, parsed.toolCalls);
      const closed = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) closed.abort();
      });
      const authInfo = {
        token: 'verified',
        clientId: principal.connectorId,
        scopes: [],
        extra: { principal },
      };
      if (!legacy) {
        const answer = await protocol.serveModern(req.headers, raw, authInfo, closed.signal);
        if (!closed.signal.aborted) await protocol.send(answer, res);
        return;
      }
      const answers = await protocol.serveLegacy(parsed.messages, authInfo, closed.signal);
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
      // Every refusal of this endpoint is a JSON-RPC error without an id (http-kit's one mapping); a 401
      // carries doc1's challenge with the metadata URL.
      const challenge = bearerChallenge(metadataUrl, bearerToken(req.headers.authorization) !== null);
      if (sendJsonRpcError(res, err, challenge).status >= 500) options.onError?.(err);
    }
  };
}
