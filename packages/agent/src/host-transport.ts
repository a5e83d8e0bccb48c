// The host-API transport: screens and lines as idempotent replies, answers from the resumable message stream.
import {
  AuthError,
  ClosedError,
  ConnectionError,
  RateLimitedError,
  ScreenServiceError,
  type ServiceCode,
  ServiceRefusedError,
} from './errors.js';
import type { TokenSource, ToolTransport } from './mcp-transport.js';
import type { Answer } from './types.js';

export interface HostTransportOptions {
  /** The host API, `{base_url}/functions/v1/svc-connect`. */
  url: string;
  /** The connector token of a host (`svc_ct_...` paired with kind `hostfw`). */
  token: TokenSource;
  fetch?: typeof fetch;
  /** Tries of a reply whose connection failed (the same idempotency key each time, so it lands once). */
  replyTries?: number;
}

interface HostAgent {
  id: string;
  name: string;
  handle: string;
  remote_ref: string | null;
}

/**
 * The host API as a transport: `svc_show` and `svc_say` become replies with an idempotency key (a reply
 * whose connection failed is sent again and lands once), `svc_answers` reads the message stream from a
 * per-agent cursor (`after`), so a dropped stream resumes where it stopped and loses nothing.
 *
 * @example
 * ```ts
 * const svc = connect({ url: 'https://svc.example/functions/v1/svc-connect', token: 'svc_ct_...', via: 'host-api' });
 * ```
 */
export function createHostTransport(options: HostTransportOptions): ToolTransport {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const cursors = new Map<string, number>();
  let agents: Promise<HostAgent[]> | undefined;
  let closed = false;
  const live = new Set<AbortController>();

  const request = async (path: string, init: RequestInit, signal?: AbortSignal) => {
    if (closed) throw new ClosedError();
    const token = typeof options.token === 'string' ? options.token : await options.token();
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, { ...init, headers, signal: signal ?? null });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ConnectionError(`${path || 'host API'}: could not reach the service (${String(err)})`, err);
    }
    if (!res.ok) throw await refusal(res);
    return res;
  };
  const post = async (path: string, body: unknown) =>
    (await (
      await request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;

  const served = () => {
    agents ??= post('', { action: 'heartbeat' }).then(
      (r) => r.agents as HostAgent[],
      (err) => {
        agents = undefined;
        throw err;
      },
    );
    return agents;
  };
  const agentOf = async (ref: unknown): Promise<HostAgent> => {
    const list = await served();
    const wanted = typeof ref === 'string' ? ref.replace(/^@/, '').toLowerCase() : undefined;
    const found =
      wanted === undefined ? list[0] : list.find((a) => a.id === ref || a.handle.toLowerCase() === wanted);
    if (!found) {
      throw new ServiceRefusedError(
        'agent_not_found',
        `No agent ${String(ref ?? '')} on this host connection.`,
        {
          field: 'agent',
        },
      );
    }
    return found;
  };

  /** A reply, sent again with the same key while the connection fails: the service writes it once. */
  const reply = async (body: Record<string, unknown>) => {
    const key = crypto.randomUUID();
    const tries = options.replyTries ?? 5;
    for (let i = 1; ; i++) {
      try {
        return await post('/messages/reply', { ...body, idempotency_key: key });
      } catch (err) {
        if (!(err instanceof ConnectionError) || i >= tries) throw err;
        await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      }
    }
  };

  const answers = async (args: Record<string, unknown>, signal?: AbortSignal) => {
    const agent = await agentOf(args.agent);
    const waitMs = Number(args.wait ?? 0) * 1000;
    const controller = new AbortController();
    live.add(controller);
    const stop = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    // The stream holds the connection; it is closed once rows came (after a short drain) or the wait is over.
    let timer = setTimeout(() => controller.abort(), Math.max(waitMs, 1));
    const found: Answer[] = [];
    try {
      const after = cursors.get(agent.id) ?? 0;
      const res = await request(`/messages?after=${after}`, { method: 'GET' }, controller.signal);
      for await (const event of sseEvents(res, controller.signal)) {
        if (event.event === 'revoked')
          throw new AuthError('connector_revoked', 'This connection was removed in the app.');
        if (event.event !== 'message') continue;
        const row = JSON.parse(event.data) as Answer & { seq: number; agent: { id: string } };
        if (row.agent.id !== agent.id || row.seq <= (cursors.get(agent.id) ?? 0)) continue;
        cursors.set(agent.id, row.seq);
        const {
          seq: _seq,
          agent: _agent,
          session: _session,
          ...answer
        } = row as typeof row & { session?: string };
        found.push(answer);
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), 50);
      }
    } catch (err) {
      if (signal?.aborted) throw err;
      if (!controller.signal.aborted) throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      live.delete(controller);
    }
    return { agent: { id: agent.id, handle: agent.handle, name: agent.name }, answers: found };
  };

  return {
    async call(tool, args, signal) {
      switch (tool) {
        case 'svc_answers':
          return answers(args, signal);
        case 'svc_show': {
          const agent = await agentOf(args.agent);
          const r = await reply({
            agent_id: agent.id,
            lines: args.lines,
            ...(args.text ? { text: args.text } : {}),
            // The reply takes svc_show's `deadline` as it is (ADR 0260): default, escalation steps.
            ...(args.deadline ? { deadline: args.deadline } : {}),
          });
          return { ...r, agent: { id: agent.id, handle: agent.handle, name: agent.name } };
        }
        case 'svc_say': {
          const agent = await agentOf(args.agent);
          return reply({ agent_id: agent.id, text: args.text });
        }
        case 'svc_threads': {
          const list = await served();
          return { agents: list.map((a, i) => ({ ...a, color: '', is_default: i === 0, unread: 0 })) };
        }
        case 'svc_withdraw':
          return post('/messages/withdraw', { screen_id: args.screen_id });
        case 'svc_tables': {
          const agent = await agentOf(args.agent);
          return post('/tables', { agent: agent.handle, lines: args.lines });
        }
        default:
          throw new ScreenServiceError('INVALID_ARGUMENT', `The host API has no ${tool}.`);
      }
    },
    async close() {
      closed = true;
      for (const c of live) c.abort();
    },
  };
}

async function refusal(res: Response): Promise<ScreenServiceError> {
  const body = (await res.json().catch(() => ({}))) as { error?: unknown; message?: unknown };
  const code = (typeof body.error === 'string' ? body.error : 'internal_error') as ServiceCode;
  const message =
    typeof body.message === 'string' ? body.message : `The host API answered HTTP ${res.status}.`;
  const extra = { status: res.status };
  if (res.status === 401 || res.status === 403) return new AuthError(code, message, extra);
  if (res.status === 429) return new RateLimitedError(code, message, extra);
  if (res.status >= 500) return new ConnectionError(message, new Error(`HTTP ${res.status}`));
  return new ServiceRefusedError(code, message, extra);
}

/** Server-sent events of a response body, as `{event, data}`; ends when the body does or `signal` aborts. */
async function* sseEvents(
  res: Response,
  signal: AbortSignal,
): AsyncGenerator<{ event: string; data: string }> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length > 0) yield { event, data: data.join('\n') };
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
