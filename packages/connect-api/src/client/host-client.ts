// A typed, fetch-based client of the host API (doc2) and its message transport (ADR 0130): no Express,
// usable from any Node 22+ program (and from the A2A bridge and webhook agents built on it).

import type {
  HoldingsResult,
  LinesCallResult,
  ReplyReadResult,
  ReplyTextResult,
} from '@screen-service/agent-tables';
import type { ReplyResult, TurnResult } from '@screen-service/core/host-messages';
import type { WithdrawResult } from '@screen-service/core/threads';
import type { AgentView } from '@screen-service/registry/agents';
import type {
  CardResult,
  CommandsResult,
  HeartbeatResult,
  PairResult,
  SessionResult,
} from '@screen-service/registry/hosts';
import type { AgentCardSummary } from '@screen-service/registry/model';
import { HostApiError } from './errors.js';

export interface HostClientOptions {
  /** `{base}/functions/v1/svc-connect`, or the service's base URL (the path is added). */
  url: string;
  /** The connector token; absent until `pair` gives one. */
  token?: string | undefined;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per-request timeout for JSON calls (ms); default 30 s. */
  timeoutMs?: number;
}

export interface PairRequest {
  code: string;
  remote_ref: string;
  host_name: string;
  /** Default `hostfw`. */
  kind?: 'hostfw' | 'http' | 'mcp' | 'hosted';
}

export interface ReplyRequest {
  agent_id: string;
  /** The thread's session key from the stream (`<agent_id>~<user_id>` for a shared thread). */
  session?: string;
  idempotency_key: string;
  text?: string;
  lines?: string;
  /** The screen's deadline (ADR 0260), as `svc_show` takes it; only with `lines`. */
  deadline?: unknown;
  turn?: string[];
  done?: boolean;
}

/** A bridged agent's card as the app shows it in the agent's settings (doc3): its name and skills. */
export type CardSummary = AgentCardSummary;

/** The connect URL for a base URL or a connect URL. */
export function connectUrlOf(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/functions\/v1\/svc-connect$/.test(trimmed) ? trimmed : `${trimmed}/functions/v1/svc-connect`;
}

/**
 * @example
 * ```ts
 * const client = createHostClient({ url: 'http://localhost:8787' });
 * const paired = await client.pair({ code: '123456', remote_ref: 'main', host_name: 'laptop' });
 * client.setToken(paired.connector_token!);
 * await client.heartbeat();
 * ```
 */
export function createHostClient(options: HostClientOptions) {
  const connectUrl = connectUrlOf(options.url);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let token = options.token;

  async function request<T>(path: string, body: unknown, auth: boolean): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth) {
      if (!token) throw new HostApiError(0, 'NOT_PAIRED', 'No connector token yet: pair this host first.');
      headers.authorization = `Bearer ${token}`;
    } else if (token) headers.authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await doFetch(connectUrl + path, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new HostApiError(0, 'NETWORK', `Could not reach ${connectUrl}${path}: ${(err as Error).message}`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      throw new HostApiError(
        res.status,
        'INVALID_RESPONSE',
        `${connectUrl}${path} answered ${res.status} with non-JSON.`,
      );
    }
    if (!res.ok) {
      const e = (parsed ?? {}) as { error?: string; message?: string; details?: unknown };
      throw new HostApiError(
        res.status,
        e.error ?? 'INVALID_RESPONSE',
        e.message ?? `The service answered ${res.status}.`,
        e.details,
      );
    }
    return parsed as T;
  }
  const action = <T>(name: string, body: Record<string, unknown> = {}, auth = true) =>
    request<T>('', { action: name, ...body }, auth);

  /**
   * The tables call (doc3) with `lines`: writes and reads of one agent's tables. `session` is the thread the
   * lines come from (a turn's session); a thread shared with another person never touches the tables.
   */
  function tables(input: { agent?: string; lines: string; session?: string }): Promise<LinesCallResult>;
  /** The tables call with a whole `reply`: the text to save, or a read with a note for the agent. */
  function tables(input: {
    agent?: string;
    reply: string;
    session?: string;
  }): Promise<ReplyTextResult | ReplyReadResult>;
  /** The tables call with neither: what the agent holds. */
  function tables(input: { agent?: string }): Promise<HoldingsResult>;
  function tables(input: {
    agent?: string;
    lines?: string;
    reply?: string;
    session?: string;
  }): Promise<unknown> {
    return request<unknown>('/tables', input, true);
  }

  return {
    connectUrl,
    /** The token calls are made with. */
    get token() {
      return token;
    },
    setToken(next: string | undefined) {
      token = next;
    },
    /** `pair`: claims a 6-digit code; with a token set, the same connector is reused (`connector_token: null`). */
    pair(input: PairRequest) {
      return action<PairResult>('pair', { kind: 'hostfw', ...input }, false);
    },
    /** `add`: registers another profile of this host, no code; an existing one answers `created: false`. */
    add(input: { remote_ref: string; name?: string; color?: string }) {
      return action<{ created: boolean; agent: AgentView }>('add', input);
    },
    /** `heartbeat`: at least every 60 s; `sandbox` maps each profile to its report. */
    heartbeat(sandbox?: Record<string, unknown>) {
      return action<HeartbeatResult>('heartbeat', sandbox ? { sandbox } : {});
    },
    /** `commands`: a profile's slash commands (null clears). */
    commands(remoteRef: string, commands: unknown[] | null) {
      return action<CommandsResult>('commands', { remote_ref: remoteRef, commands });
    },
    /** `session`: agents with their looks, app builds and the transport's addresses. */
    session() {
      return action<SessionResult>('session');
    },
    /** A turn starts: its rows are marked delivered and the person sees a working row. */
    turn(agentId: string, rows: string[], session?: string) {
      return request<TurnResult>(
        '/messages/turn',
        { agent_id: agentId, rows, ...(session ? { session } : {}) },
        true,
      );
    },
    /** An answer; a resend with the same `idempotency_key` writes nothing new (`replayed: true`). */
    reply(input: ReplyRequest) {
      return request<ReplyResult>('/messages/reply', input, true);
    },
    /** Takes back a screen this host showed (ADR 0279): the phone shows it withdrawn and takes no taps. */
    withdraw(screenId: string) {
      return request<WithdrawResult>('/messages/withdraw', { screen_id: screenId }, true);
    },
    /** `card`: the card summary (name, skills) of a bridged profile, shown in the agent's settings (null clears). */
    card(remoteRef: string, card: CardSummary | null) {
      return action<CardResult>('card', { remote_ref: remoteRef, card });
    },
    tables,
  };
}

/** A host API client. */
export type HostClient = ReturnType<typeof createHostClient>;
