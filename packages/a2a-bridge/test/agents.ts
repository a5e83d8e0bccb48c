// Real A2A test servers built with @a2a-js/sdk: 1.0 only, 1.0 + 0.3 compat (1.3.x) and native 0.3 (0.3.14).
// One scripted agent answers by the first word of the person's text: echo, ask, chunks, fail, reject,
// auth, slow, direct, file. Everything binds to 127.0.0.1 only.
import type { AddressInfo } from 'node:net';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import {
  DefaultRequestHandler as DefaultRequestHandler03,
  InMemoryTaskStore as InMemoryTaskStore03,
} from 'a2a-sdk-v03/server';
import {
  agentCardHandler as agentCardHandler03,
  jsonRpcHandler as jsonRpcHandler03,
  UserBuilder as UserBuilder03,
} from 'a2a-sdk-v03/server/express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SeenCall, SeenMessage } from './agent-script.js';
import { executor03 } from './executor-v03.js';
import { executor10 } from './executor-v10.js';

export type { SeenCall, SeenMessage } from './agent-script.js';

export type ServerKind = 'v10' | 'compat' | 'v03';

export interface TestServer {
  kind: ServerKind;
  base: string;
  /** Card URL of an agent: `stream` (streaming), `poll` (no streaming), `keyed` (needs `Authorization: Bearer secret`), `graph` (lists a graph-framework extension). */
  url(agent: 'stream' | 'poll' | 'keyed' | 'graph'): string;
  seen: SeenMessage[];
  calls: SeenCall[];
  /** Cuts the next SSE response after this many event frames (the socket is destroyed). */
  dropNextStreamAfter(frames: number): void;
  close(): Promise<void>;
}

const SKILLS10 = [
  {
    id: 'echo',
    name: 'Echo',
    description: 'Says back what it hears',
    tags: ['test'],
    examples: [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  },
];

/** The extension a graph-framework agent lists on its card (the bridge spots it by name). */
export const GRAPH_EXTENSION = 'https://langchain.com/langgraph/a2a/thread';

const extensionsFor = (graph: boolean) =>
  graph ? [{ uri: GRAPH_EXTENSION, description: 'graph thread', required: false, params: undefined }] : [];

function card10(kind: ServerKind, name: string, url: string, streaming: boolean, graph: boolean) {
  const ifaces = [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }];
  if (kind === 'compat') ifaces.push({ url, protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' });
  return {
    name,
    description: 'A scripted test agent',
    supportedInterfaces: ifaces,
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming, pushNotifications: false, extensions: extensionsFor(graph) },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: SKILLS10,
    signatures: [],
  };
}

function card03(name: string, url: string, streaming: boolean, graph: boolean) {
  return {
    name,
    description: 'A scripted test agent',
    protocolVersion: '0.3.0',
    version: '1.0.0',
    url,
    preferredTransport: 'JSONRPC',
    capabilities: {
      streaming,
      pushNotifications: false,
      extensions: extensionsFor(graph).map(({ uri }) => ({ uri })),
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Says back what it hears', tags: ['test'] }],
  };
}

/**
 * Starts one real A2A server of the given kind on 127.0.0.1 (a free port).
 */
export async function startTestServer(kind: ServerKind): Promise<TestServer> {
  const app = express();
  const seen: SeenMessage[] = [];
  const calls: SeenCall[] = [];
  let dropAfter = 0;
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Cuts the next SSE response mid-stream, as a proxy or a crashing server would.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    let frames = 0;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      const sse = String(res.getHeader('content-type') ?? '').includes('text/event-stream');
      if (sse && dropAfter > 0) {
        frames++;
        if (frames >= dropAfter) {
          dropAfter = 0;
          const ok = write(chunk, ...rest);
          setImmediate(() => req.socket.destroy());
          return ok;
        }
      }
      return write(chunk, ...rest);
    }) as typeof res.write;
    next();
  });

  for (const agent of ['stream', 'poll', 'keyed', 'graph'] as const) {
    const rpcUrl = `${base}/${agent}/a2a`;
    const name = `${kind}-${agent}`;
    const streaming = agent !== 'poll';
    if (agent === 'keyed') {
      app.use(`/${agent}/a2a`, (req: Request, res: Response, next: NextFunction) => {
        if (req.header('authorization') !== 'Bearer secret') res.status(401).json({ error: 'missing key' });
        else next();
      });
    }
    app.use(`/${agent}/a2a`, express.json(), (req: Request, _res: Response, next: NextFunction) => {
      const body = req.body as { method?: string };
      calls.push({
        path: agent,
        method: String(body?.method),
        version: req.header('a2a-version'),
        extensions: req.header('a2a-extensions') ?? req.header('x-a2a-extensions'),
        body,
      });
      next();
    });
    if (kind === 'v03') {
      const handler = new DefaultRequestHandler03(
        card03(name, rpcUrl, streaming, agent === 'graph') as never,
        new InMemoryTaskStore03(),
        executor03(seen) as never,
      );
      app.use(`/${agent}/.well-known/agent-card.json`, agentCardHandler03({ agentCardProvider: handler }));
      app.use(
        `/${agent}/a2a`,
        jsonRpcHandler03({ requestHandler: handler, userBuilder: UserBuilder03.noAuthentication }),
      );
    } else {
      const legacyCompat = { enabled: kind === 'compat' };
      const handler = new DefaultRequestHandler(
        card10(kind, name, rpcUrl, streaming, agent === 'graph') as never,
        new InMemoryTaskStore(),
        executor10(seen),
      );
      app.use(
        `/${agent}/.well-known/agent-card.json`,
        agentCardHandler({ agentCardProvider: handler, legacyCompat }),
      );
      app.use(
        `/${agent}/a2a`,
        jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }),
      );
    }
  }
  // A card that offers only gRPC and HTTP+JSON: the bridge must refuse it with a reason.
  app.get('/grpc/.well-known/agent-card.json', (_req: Request, res: Response) => {
    res.json({
      name: 'grpc-only',
      supportedInterfaces: [
        { url: `${base}/grpc`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      skills: [],
    });
  });

  return {
    kind,
    base,
    url: (agent) => `${base}/${agent}`,
    seen,
    calls,
    dropNextStreamAfter(frames) {
      dropAfter = frames;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
