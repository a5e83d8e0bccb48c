// Real A2A test servers built with @a2a-js/sdk: 1.0 only, 1.0 + 0.3 compat (1.3.x) and native 0.3 (0.3.14).
// One scripted agent answers by the first word of the person's text: echo, ask, chunks, fail, reject,
// auth, slow, direct, file. Everything binds to 127.0.0.1 only.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Role, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
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

export type ServerKind = 'v10' | 'compat' | 'v03';

/** One step of the scripted agent. */
type Step =
  | {
      state: 'working' | 'input-required' | 'completed' | 'failed' | 'rejected' | 'auth-required';
      text?: string;
    }
  | { artifact: string; append: boolean; artifactId: string }
  | { wait: number }
  | { message: string }
  | { file: string };

/** What the script does for a text; `followUp` when the message continues an existing task. */
function script(text: string, followUp: boolean): Step[] {
  const [word = '', ...rest] = text.trim().split(/\s+/);
  const arg = rest.join(' ');
  if (followUp) {
    // The task opens with its old snapshot (still asking); the agent takes a moment before working.
    return [
      { wait: 80 },
      { state: 'working' },
      { artifact: `Weather in ${text.trim()}: sunny`, append: false, artifactId: 'a1' },
      { state: 'completed' },
    ];
  }
  switch (word) {
    case 'ask':
      return [{ state: 'working' }, { state: 'input-required', text: 'Which city?' }];
    case 'chunks':
      return [
        { state: 'working' },
        { artifact: 'one ', append: false, artifactId: 'c1' },
        { wait: Number(arg) || 20 },
        { artifact: 'two ', append: true, artifactId: 'c1' },
        { wait: Number(arg) || 20 },
        { artifact: 'three', append: true, artifactId: 'c1' },
        { wait: 20 },
        { state: 'completed', text: 'All chunks sent.' },
      ];
    case 'fail':
      return [{ state: 'working' }, { state: 'failed', text: 'the disk is full' }];
    case 'reject':
      return [{ state: 'rejected', text: 'I only talk about weather' }];
    case 'auth':
      return [
        { state: 'working' },
        { state: 'auth-required', text: 'Sign in at https://auth.example/login' },
        { wait: 1500 },
      ];
    case 'slow':
      return [
        { state: 'working' },
        { wait: Number(arg) || 1000 },
        { artifact: 'done slowly', append: false, artifactId: 's1' },
        { state: 'completed' },
      ];
    case 'direct':
      return [{ message: `direct: ${arg}` }];
    case 'status':
      return [
        { state: 'working', text: 'thinking' },
        { state: 'completed', text: 'only a status answer' },
      ];
    case 'file':
      return [{ file: 'https://files.example/report.pdf' }, { state: 'completed' }];
    default:
      return [
        { state: 'working' },
        { artifact: `echo: ${text}`, append: false, artifactId: 'e1' },
        { state: 'completed' },
      ];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a server saw of one message. */
export interface SeenMessage {
  messageId: string;
  taskId: string | undefined;
  contextId: string | undefined;
  texts: string[];
  textMetadata: (Record<string, unknown> | undefined)[];
  data: unknown[];
}

/** What a server saw of one HTTP call. */
export interface SeenCall {
  path: string;
  method: string;
  version: string | undefined;
  extensions: string | undefined;
  body: unknown;
}

// ---- 1.3.x executor (1.0 shapes: $case parts, numeric enums) ----

const STATE10: Record<string, TaskState> = {
  working: TaskState.TASK_STATE_WORKING,
  'input-required': TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  rejected: TaskState.TASK_STATE_REJECTED,
  'auth-required': TaskState.TASK_STATE_AUTH_REQUIRED,
};

function part10(text: string) {
  return {
    content: { $case: 'text' as const, value: text },
    metadata: undefined,
    filename: '',
    mediaType: '',
  };
}

function message10(text: string, ctx: { taskId: string; contextId: string }) {
  return {
    messageId: randomUUID(),
    contextId: ctx.contextId,
    taskId: ctx.taskId,
    role: Role.ROLE_AGENT,
    parts: [part10(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function executor10(seen: SeenMessage[]): AgentExecutor {
  return {
    async execute(rc: RequestContext, bus: ExecutionEventBus) {
      const m = rc.userMessage;
      const texts: string[] = [];
      const textMetadata: (Record<string, unknown> | undefined)[] = [];
      const data: unknown[] = [];
      for (const p of m.parts) {
        if (p.content?.$case === 'text') {
          texts.push(p.content.value);
          textMetadata.push(p.metadata);
        } else if (p.content?.$case === 'data') data.push(p.content.value);
      }
      seen.push({
        messageId: m.messageId,
        taskId: m.taskId || undefined,
        contextId: m.contextId || undefined,
        texts,
        textMetadata,
        data,
      });
      const ctx = { taskId: rc.taskId, contextId: rc.contextId };
      const person = texts.filter((_, i) => textMetadata[i]?.svc !== 'channel_guide').join('\n');
      const steps = script(person, rc.task !== undefined);
      if (steps[0] && 'message' in steps[0]) {
        bus.publish({ kind: 'message', data: message10(steps[0].message, ctx) });
        bus.finished();
        return;
      }
      const status = (state: TaskState, text?: string) => ({
        state,
        message: text === undefined ? undefined : message10(text, ctx),
        timestamp: new Date().toISOString(),
      });
      bus.publish({
        kind: 'task',
        data: {
          id: rc.taskId,
          contextId: rc.contextId,
          status: rc.task?.status ?? status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: rc.task?.artifacts ?? [],
          history: [...(rc.task?.history ?? []), m],
          metadata: undefined,
        },
      });
      for (const step of steps) {
        if ('wait' in step) await sleep(step.wait);
        else if ('state' in step) {
          bus.publish({
            kind: 'statusUpdate',
            data: { ...ctx, status: status(STATE10[step.state]!, step.text), metadata: undefined },
          });
        } else if ('artifact' in step || 'file' in step) {
          const parts =
            'file' in step
              ? [
                  {
                    content: { $case: 'url' as const, value: step.file },
                    metadata: undefined,
                    filename: 'report.pdf',
                    mediaType: 'application/pdf',
                  },
                ]
              : [part10(step.artifact)];
          bus.publish({
            kind: 'artifactUpdate',
            data: {
              ...ctx,
              artifact: {
                artifactId: 'artifactId' in step ? step.artifactId : 'f1',
                name: '',
                description: '',
                parts,
                metadata: undefined,
                extensions: [],
              },
              append: 'append' in step ? step.append : false,
              lastChunk: false,
              metadata: undefined,
            },
          });
        }
      }
      bus.finished();
    },
    async cancelTask() {},
  };
}

// ---- 0.3.14 executor (kind-tagged shapes) ----

type Any03 = Record<string, unknown>;

function executor03(seen: SeenMessage[]) {
  return {
    async execute(
      rc: { userMessage: Any03; taskId: string; contextId: string; task?: Any03 },
      bus: { publish(e: unknown): void; finished(): void },
    ) {
      const m = rc.userMessage as { messageId: string; taskId?: string; contextId?: string; parts: Any03[] };
      const texts: string[] = [];
      const textMetadata: (Record<string, unknown> | undefined)[] = [];
      const data: unknown[] = [];
      for (const p of m.parts) {
        if (p.kind === 'text') {
          texts.push(p.text as string);
          textMetadata.push(p.metadata as Record<string, unknown> | undefined);
        } else if (p.kind === 'data') data.push(p.data);
      }
      seen.push({
        messageId: m.messageId,
        taskId: m.taskId,
        contextId: m.contextId,
        texts,
        textMetadata,
        data,
      });
      const ctx = { taskId: rc.taskId, contextId: rc.contextId };
      const msg = (text: string) => ({
        kind: 'message',
        role: 'agent',
        messageId: randomUUID(),
        parts: [{ kind: 'text', text }],
        ...ctx,
      });
      const person = texts.filter((_, i) => textMetadata[i]?.svc !== 'channel_guide').join('\n');
      const steps = script(person, rc.task !== undefined);
      if (steps[0] && 'message' in steps[0]) {
        bus.publish(msg(steps[0].message));
        bus.finished();
        return;
      }
      bus.publish({
        kind: 'task',
        id: rc.taskId,
        contextId: rc.contextId,
        status: rc.task?.status ?? { state: 'submitted', timestamp: new Date().toISOString() },
        artifacts: (rc.task?.artifacts as unknown[]) ?? [],
        history: [...((rc.task?.history as unknown[]) ?? []), m],
      });
      for (const step of steps) {
        if ('wait' in step) await sleep(step.wait);
        else if ('state' in step) {
          const final = step.state !== 'working';
          bus.publish({
            kind: 'status-update',
            ...ctx,
            status: {
              state: step.state,
              timestamp: new Date().toISOString(),
              ...(step.text ? { message: msg(step.text) } : {}),
            },
            final,
          });
        } else if ('artifact' in step || 'file' in step) {
          const parts =
            'file' in step
              ? [{ kind: 'file', file: { uri: step.file, name: 'report.pdf', mimeType: 'application/pdf' } }]
              : [{ kind: 'text', text: step.artifact }];
          bus.publish({
            kind: 'artifact-update',
            ...ctx,
            artifact: { artifactId: 'artifactId' in step ? step.artifactId : 'f1', parts },
            append: 'append' in step ? step.append : false,
          });
        }
      }
      bus.finished();
    },
    async cancelTask() {},
  };
}

/** A running test server with its agents mounted under `/stream`, `/poll` and `/keyed`. */
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
