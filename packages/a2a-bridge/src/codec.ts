// Wire codecs: the exact JSON-RPC shapes of A2A 1.0 and 0.3, to and from the neutral model.
import type { ProtocolVersion } from './card.js';
import { BridgeError } from './errors.js';
import type { A2AEvent, Artifact, Message, Part, Task, TaskState } from './model.js';

type Json = Record<string, unknown>;

/** One protocol version's method names, headers and shapes. */
export interface WireCodec {
  version: ProtocolVersion;
  methods: { send: string; stream: string; get: string; subscribe: string };
  /** Headers every call carries (the version header on 1.0; extensions when activated). */
  headers(versionHeader: string, extensions: string[]): Record<string, string>;
  /** Params of send/stream. `blocking: false` asks the server to answer as soon as the task exists. */
  sendParams(message: Message, blocking: boolean): Json;
  /** Params of GetTask / tasks/get and SubscribeToTask / tasks/resubscribe. */
  taskParams(taskId: string): Json;
  /** Decodes a send result or one stream event. */
  decodeEvent(result: unknown): A2AEvent;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function meta(v: unknown): Record<string, unknown> | undefined {
  return isObject(v) ? v : undefined;
}

function bad(what: string, got: unknown): never {
  throw new BridgeError(
    'RPC_BAD_RESPONSE',
    `the agent sent ${what} the bridge cannot read: ${JSON.stringify(got)?.slice(0, 200)}; check that it speaks A2A`,
  );
}

function decodeState(v: unknown): TaskState {
  const s = str(v)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
  const known: TaskState[] = [
    'submitted',
    'working',
    'input-required',
    'completed',
    'failed',
    'canceled',
    'rejected',
    'auth-required',
  ];
  return (known as string[]).includes(s) ? (s as TaskState) : s === 'cancelled' ? 'canceled' : 'unknown';
}

function withOptional<T extends object>(base: T, extra: Json): T & Json {
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (base as Json)[k] = v;
  return base as T & Json;
}

// ---- 1.0: parts without kind, ROLE_*, TASK_STATE_*, wrapped results ----

function encodePart10(p: Part): Json {
  switch (p.kind) {
    case 'text':
      return withOptional({ text: p.text }, { metadata: p.metadata });
    case 'file':
      return withOptional(p.url ? { url: p.url } : { raw: p.bytes ?? '' }, {
        mediaType: p.mediaType,
        filename: p.name,
      });
    case 'data':
      return withOptional({ data: p.data }, { metadata: p.metadata });
  }
}

function decodePart10(p: unknown): Part | undefined {
  if (!isObject(p)) return undefined;
  if (typeof p.text === 'string')
    return withOptional({ kind: 'text' as const, text: p.text }, { metadata: meta(p.metadata) });
  if (typeof p.url === 'string' || typeof p.raw === 'string') {
    return withOptional(
      { kind: 'file' },
      { url: p.url, bytes: p.raw, name: p.filename || undefined, mediaType: p.mediaType || undefined },
    ) as Part;
  }
  if ('data' in p)
    return withOptional({ kind: 'data' as const, data: p.data }, { metadata: meta(p.metadata) });
  return undefined;
}

function decodeMessage(m: unknown, decodePart: (p: unknown) => Part | undefined): Message {
  if (!isObject(m)) bad('a message', m);
  const parts = Array.isArray(m.parts) ? m.parts.map(decodePart).filter((p) => p !== undefined) : [];
  const role = /user/i.test(str(m.role)) ? 'user' : 'agent';
  return withOptional(
    { messageId: str(m.messageId), role, parts },
    { contextId: m.contextId || undefined, taskId: m.taskId || undefined, metadata: meta(m.metadata) },
  ) as Message;
}

function decodeArtifact(a: unknown, decodePart: (p: unknown) => Part | undefined): Artifact {
  if (!isObject(a)) bad('an artifact', a);
  const parts = Array.isArray(a.parts) ? a.parts.map(decodePart).filter((p) => p !== undefined) : [];
  return { artifactId: str(a.artifactId), parts };
}

function decodeTask(t: unknown, decodePart: (p: unknown) => Part | undefined): Task {
  if (!isObject(t) || typeof t.id !== 'string') bad('a task', t);
  const status = isObject(t.status) ? t.status : {};
  const task: Task = {
    id: t.id,
    contextId: str(t.contextId),
    state: decodeState(status.state),
    artifacts: Array.isArray(t.artifacts) ? t.artifacts.map((a) => decodeArtifact(a, decodePart)) : [],
    history: Array.isArray(t.history) ? t.history.map((m) => decodeMessage(m, decodePart)) : [],
  };
  if (isObject(status.message)) task.statusMessage = decodeMessage(status.message, decodePart);
  return task;
}

function decodeStatus(e: Json, decodePart: (p: unknown) => Part | undefined): A2AEvent {
  const status = isObject(e.status) ? e.status : {};
  return withOptional(
    { type: 'status', taskId: str(e.taskId), contextId: str(e.contextId), state: decodeState(status.state) },
    { message: isObject(status.message) ? decodeMessage(status.message, decodePart) : undefined },
  ) as A2AEvent;
}

function decodeArtifactEvent(e: Json, decodePart: (p: unknown) => Part | undefined): A2AEvent {
  return {
    type: 'artifact',
    taskId: str(e.taskId),
    artifact: decodeArtifact(e.artifact, decodePart),
    append: e.append === true,
  };
}

/** The A2A 1.0 JSON-RPC codec. */
export const codec10: WireCodec = {
  version: '1.0',
  methods: {
    send: 'SendMessage',
    stream: 'SendStreamingMessage',
    get: 'GetTask',
    subscribe: 'SubscribeToTask',
  },
  headers(versionHeader, extensions) {
    const h: Record<string, string> = { 'A2A-Version': versionHeader };
    if (extensions.length > 0) h['A2A-Extensions'] = extensions.join(', ');
    return h;
  },
  sendParams(message, blocking) {
    const m = withOptional(
      { messageId: message.messageId, role: message.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT' },
      { contextId: message.contextId, taskId: message.taskId },
    );
    m.parts = message.parts.map(encodePart10);
    if (message.metadata) m.metadata = message.metadata;
    return { message: m, configuration: { returnImmediately: !blocking } };
  },
  taskParams(taskId) {
    return { id: taskId };
  },
  decodeEvent(r) {
    if (!isObject(r)) bad('a result', r);
    if (isObject(r.task)) return { type: 'task', task: decodeTask(r.task, decodePart10) };
    if (isObject(r.message)) return { type: 'message', message: decodeMessage(r.message, decodePart10) };
    if (isObject(r.statusUpdate)) return decodeStatus(r.statusUpdate, decodePart10);
    if (isObject(r.artifactUpdate)) return decodeArtifactEvent(r.artifactUpdate, decodePart10);
    // GetTask answers the bare task.
    if (typeof r.id === 'string' && isObject(r.status))
      return { type: 'task', task: decodeTask(r, decodePart10) };
    return bad('a 1.0 result', r);
  },
};

// ---- 0.3: parts with kind, lowercase roles and states, bare results with kind ----

function encodePart03(p: Part): Json {
  switch (p.kind) {
    case 'text':
      return withOptional({ kind: 'text' as const, text: p.text }, { metadata: p.metadata });
    case 'file':
      return {
        kind: 'file',
        file: withOptional(p.url ? { uri: p.url } : { bytes: p.bytes ?? '' }, {
          mimeType: p.mediaType,
          name: p.name,
        }),
      };
    case 'data':
      return withOptional({ kind: 'data' as const, data: p.data }, { metadata: p.metadata });
  }
}

function decodePart03(p: unknown): Part | undefined {
  if (!isObject(p)) return undefined;
  if (p.kind === 'text' && typeof p.text === 'string') {
    return withOptional({ kind: 'text' as const, text: p.text }, { metadata: meta(p.metadata) });
  }
  if (p.kind === 'file' && isObject(p.file)) {
    const f = p.file;
    return withOptional(
      { kind: 'file' },
      { url: f.uri, bytes: f.bytes, name: f.name || undefined, mediaType: f.mimeType || undefined },
    ) as Part;
  }
  if (p.kind === 'data')
    return withOptional({ kind: 'data' as const, data: p.data }, { metadata: meta(p.metadata) });
  return undefined;
}

/** The A2A 0.3 JSON-RPC codec. Always sends `blocking` explicitly (a 1.x compat layer defaults it off). */
export const codec03: WireCodec = {
  version: '0.3',
  methods: {
    send: 'message/send',
    stream: 'message/stream',
    get: 'tasks/get',
    subscribe: 'tasks/resubscribe',
  },
  headers(_versionHeader, extensions) {
    const h: Record<string, string> = {};
    if (extensions.length > 0) h['X-A2A-Extensions'] = extensions.join(', ');
    return h;
  },
  sendParams(message, blocking) {
    const m = withOptional(
      { kind: 'message', messageId: message.messageId, role: message.role },
      { contextId: message.contextId, taskId: message.taskId },
    );
    m.parts = message.parts.map(encodePart03);
    if (message.metadata) m.metadata = message.metadata;
    return { message: m, configuration: { blocking } };
  },
  taskParams(taskId) {
    return { id: taskId };
  },
  decodeEvent(r) {
    if (!isObject(r)) bad('a result', r);
    switch (r.kind) {
      case 'task':
        return { type: 'task', task: decodeTask(r, decodePart03) };
      case 'message':
        return { type: 'message', message: decodeMessage(r, decodePart03) };
      case 'status-update':
        return decodeStatus(r, decodePart03);
      case 'artifact-update':
        return decodeArtifactEvent(r, decodePart03);
      default:
        return bad('a 0.3 result', r);
    }
  },
};

/**
 * The codec for a protocol version.
 *
 * @example
 * ```ts
 * codecFor('1.0').methods.send; // 'SendMessage'
 * ```
 */
export function codecFor(version: ProtocolVersion): WireCodec {
  return version === '1.0' ? codec10 : codec03;
}
