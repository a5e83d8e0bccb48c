// Entry of `@screen-service/native-agents/testing`: a scripted chat-completions server on 127.0.0.1 that
// speaks the protocol for real (HTTP, JSON answers and SSE streams), for this package's and the app's tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface ModelRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream: boolean;
  authorization: string | null;
}

/** One scripted answer: text, an HTTP failure, or a function of the request. */
export type ScriptedAnswer =
  | string
  | { status: number; body?: string }
  /** `after`: the answer waits for it (a slow model, so a test can act during the turn). */
  | { text: string; tokens?: number; after?: Promise<unknown> }
  | ((request: ModelRequest) => string);

export interface ModelServer {
  /** Base URL (`http://127.0.0.1:<port>/v1`). */
  url: string;
  requests: ModelRequest[];
  /** Queues answers, used in order; when the queue is empty the server answers `fallback`. */
  script(...answers: ScriptedAnswer[]): void;
  /** Stops listening (the port refuses connections) until `start()`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ModelServerOptions {
  /** Answer with SSE when the request asks for it; default true. False: always JSON (a server without streaming). */
  streaming?: boolean;
  /** Answer when nothing is scripted; default 'OK.'. */
  fallback?: ScriptedAnswer;
  /** SSE chunk size in characters; default 7 (so answers arrive in many events). */
  chunk?: number;
}

/**
 * @example
 * ```ts
 * const model = await startModelServer();
 * model.script('Hello!\n```svc\nnote "Hi"\n```');
 * // SVC_MODEL_URL = model.url
 * await model.close();
 * ```
 */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: ModelRequest[] = [];
  const chunk = options.chunk ?? 7;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no route"}}');
        return;
      }
      const body = JSON.parse(raw) as { model: string; messages: ModelRequest['messages']; stream?: boolean };
      const request: ModelRequest = {
        model: body.model,
        messages: body.messages,
        stream: body.stream === true,
        authorization: req.headers.authorization ?? null,
      };
      requests.push(request);
      const next = queue.shift() ?? options.fallback ?? 'OK.';
      if (typeof next === 'object' && 'status' in next) {
        res.writeHead(next.status, { 'content-type': 'application/json' });
        res.end(next.body ?? JSON.stringify({ error: { message: `scripted ${next.status}` } }));
        return;
      }
      if (typeof next === 'object' && 'after' in next && next.after) await next.after;
      const text = typeof next === 'function' ? next(request) : typeof next === 'string' ? next : next.text;
      const tokens =
        typeof next === 'object' && 'tokens' in next && next.tokens !== undefined ? next.tokens : 10;
      const usage = { prompt_tokens: tokens - 1, completion_tokens: 1, total_tokens: tokens };
      if (request.stream && options.streaming !== false) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(': scripted stream\n\n');
        for (let i = 0; i < text.length; i += chunk) {
          const delta = { choices: [{ index: 0, delta: { content: text.slice(i, i + chunk) } }] };
          res.write(`data: ${JSON.stringify(delta)}\n\n`);
        }
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
        );
        res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        }),
      );
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...answers) {
      queue.push(...answers);
    },
    stop,
    start: () => listen(port),
    async close() {
      if (server.listening) await stop();
    },
  };
}
