// Both protocol eras on one endpoint through the SDK (ADR 0263): 2026-07-28 requests go to its per-request
// handler, 2025 requests to one long-lived server behind the dispatcher; one factory builds both servers.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  type AuthInfo,
  classifyInboundRequest,
  createMcpHandler,
  type JSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { connectDispatcher, type Dispatcher } from './dispatcher.js';
import { buildGuideTexts } from './guide-texts.js';
import { createSvcMcpServer, type SvcMcpServerOptions } from './svc-mcp-server.js';

/** The revision without a handshake (per-request `_meta`, `server/discover`), served beside the 2025 ones. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Every MCP revision this server speaks, newest first. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  ...MODERN_PROTOCOL_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
]);

// Hop-by-hop and body-framing headers describe the node request, not the message handed to the SDK.
const DROPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** What the handler needs to serve one verified POST. */
export interface ProtocolServer {
  /**
   * True for 2025-era traffic (no per-request `_meta` claim, no 2026 version header): the SDK's own
   * classification. Anything else (its rejections included) is the modern handler's to answer.
   */
  isLegacy(headers: IncomingHttpHeaders, body: unknown): boolean;
  /** A 2025-era body's responses, in request order (the one shared server, ADR 0060). */
  serveLegacy(messages: JSONRPCMessage[], authInfo: AuthInfo, signal: AbortSignal): Promise<JSONRPCMessage[]>;
  /** A 2026-07-28 request, served by the SDK's per-request handler. */
  serveModern(
    headers: IncomingHttpHeaders,
    body: unknown,
    authInfo: AuthInfo,
    signal: AbortSignal,
  ): Promise<Response>;
  /** Writes the SDK's answer to the node response, streaming it when it is an event stream. */
  send(answer: Response, res: ServerResponse): Promise<void>;
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * The protocol side of the tool server: one factory (the Screen Service server) behind both eras. 2025
 * requests share one long-lived instance (the SDK's per-request serving cost about ten times the CPU per
 * call, ADR 0263); 2026-07-28 requests get the fresh instance per request the SDK's modern handler
 * requires. The guide texts are built once.
 */
export function createProtocolServer(options: {
  mcpUrl: string;
  server: SvcMcpServerOptions;
  onError?: (err: unknown) => void;
}): ProtocolServer {
  const serverOptions = { ...options.server, texts: options.server.texts ?? buildGuideTexts() };
  const factory = () => createSvcMcpServer(serverOptions);
  // Only the 2026-07-28 era has the Tasks extension's per-request declaration (ADR 0265).
  const modern = createMcpHandler(() => createSvcMcpServer({ ...serverOptions, tasks: true }), {
    legacy: 'reject',
  });
  let dispatcher: Dispatcher | undefined;
  const ready = connectDispatcher(factory()).then((d) => {
    dispatcher = d;
    return d;
  });

  function toRequest(headers: IncomingHttpHeaders, body: unknown, signal: AbortSignal): Request {
    const h = new Headers();
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined || DROPPED_HEADERS.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
    }
    // The endpoint already checked the client takes JSON; the SDK wants both types listed.
    h.set('accept', 'application/json, text/event-stream');
    h.set('content-type', 'application/json');
    return new Request(options.mcpUrl, { method: 'POST', headers: h, body: JSON.stringify(body), signal });
  }

  return {
    isLegacy(headers, body) {
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        body,
        ...(header(headers, 'mcp-protocol-version')
          ? { protocolVersionHeader: header(headers, 'mcp-protocol-version') }
          : {}),
        ...(header(headers, 'mcp-method') ? { mcpMethodHeader: header(headers, 'mcp-method') } : {}),
        ...(header(headers, 'mcp-name') ? { mcpNameHeader: header(headers, 'mcp-name') } : {}),
      });
      return route.kind === 'legacy';
    },
    async serveLegacy(messages, authInfo, signal) {
      const d = dispatcher ?? (await ready);
      return d.dispatch(messages, { authInfo, signal });
    },
    serveModern(headers, body, authInfo, signal) {
      return modern.fetch(toRequest(headers, body, signal), { authInfo, parsedBody: body });
    },
    async send(answer, res) {
      res.statusCode = answer.status;
      answer.headers.forEach((value, name) => {
        res.setHeader(name, value);
      });
      if (!answer.body) {
        res.end();
        return;
      }
      // A JSON answer is one small body: written whole with its length, it leaves in one write (piped, it
      // went out chunked in three, and the socket writes were the largest cost of a 2026-07-28 call).
      if (!answer.headers.get('content-type')?.startsWith('text/event-stream')) {
        const body = Buffer.from(await answer.arrayBuffer());
        res.setHeader('content-length', body.length);
        res.end(body);
        return;
      }
      await pipeline(Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>), res);
    },
  };
}
