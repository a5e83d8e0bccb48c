// The relay: JSON-RPC passed through between a client and a wrapped server, elicitations taken to the phone.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ServiceRefusedError, type Svc } from '@screen-service/agent';
import { type AnswerMode, answerElicitation, type PolicyOptions } from './answer-policy.js';
import { createClientAsker } from './client-asker.js';
import { answerInputRequired, isRelayedInputRequired } from './input-required.js';
import { createMemoryJournal, type Journal } from './journal.js';
import type { ScreenWatch } from './screen-watch.js';
import { createWire, type Id, isObject, type Msg } from './wire.js';

/** Options of {@link createRelay}. */
export interface RelayOptions {
  /** The client's side (the relay is its server): stdio, or Streamable HTTP. */
  client: Transport;
  /** The wrapped server's side (the relay is its client). */
  server: Transport;
  /** The person's phone: the agent SDK client of the relay's agent. */
  svc: Svc;
  /** The name the person reads; default: the wrapped server's own (`serverInfo.title` or `name`). */
  serverName?: string;
  /** Who answers (default `phone`). */
  answer?: AnswerMode;
  /** Seconds the client has in `client-first` mode (default 60). */
  clientWaitSeconds?: number;
  /** Where open asks are written for a restart (default: nowhere). */
  journal?: Journal;
  /**
   * The transport `svc` was connected with, wrapped by `watchScreens`: each open ask's screen is written
   * to the journal, and a restart withdraws the screens a killed run left (`svc_withdraw`). Without it a
   * restart can only tell the person in a chat line.
   */
  screens?: ScreenWatch;
  /** Diagnostics (never stdout: that is the client's wire on stdio). */
  log?: (line: string) => void;
}

/** A running relay. */
export interface Relay {
  /** Starts both transports and closes what a previous run left open on the phone. */
  start(): Promise<void>;
  /** Ends every open ask (its screen withdrawn) and closes both sides. */
  close(): Promise<void>;
  /** Resolves when either side closed and the relay shut down. */
  readonly closed: Promise<void>;
}

const CAPS_META = 'io.modelcontextprotocol/clientCapabilities';
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';
/** The requests a 2026-07-28 server may answer with `input_required`. */
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
const BOTH_MODES = { form: {}, url: {} };
/** How long a closing relay waits for its open asks to withdraw their screens. */
const WITHDRAW_GRACE_MS = 3_000;

/**
 * Wires a client to a wrapped MCP server. Every message passes through unchanged, except: the relay declares
 * elicitation (form and URL) to the server; the server's `elicitation/create` requests and the elicitation
 * requests inside 2026-07-28 `input_required` results are answered by the person (on the phone, or the client,
 * per `answer`), exactly once each, and a 2026-07-28 call is retried with the answers until it completes.
 *
 * @example
 * ```ts
 * const relay = createRelay({ client: new StdioServerTransport(), server: new StdioClientTransport({ command: 'my-server' }), svc });
 * await relay.start();
 * await relay.closed;
 * ```
 */
export function createRelay(o: RelayOptions): Relay {
  const log = o.log ?? (() => {});
  let serverInfoName: string | undefined;
  let clientElicitation: Record<string, unknown> | undefined;
  const initIds = new Set<Id>();
  /** Client requests the relay may have to retry (2026-07-28), by id. */
  const retryable = new Map<Id, Msg>();
  /** Client requests the relay is answering on the phone after an `input_required`, by id. */
  const inFlight = new Map<Id, AbortController>();
  /** The wrapped server's elicitations the relay is answering, by their id. */
  const elicitations = new Map<Id, AbortController>();
  let closing = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => {
    resolveClosed = r;
  });

  const policy: PolicyOptions = {
    svc: o.svc,
    server: () => o.serverName ?? serverInfoName ?? 'An MCP server',
    mode: o.answer ?? 'phone',
    clientWaitMs: (o.clientWaitSeconds ?? 60) * 1000,
    journal: o.journal ?? createMemoryJournal(),
    screens: o.screens,
    log,
  };

  const wire = createWire(o.client, o.server, log);
  const { toServer, toClient, awaiting } = wire;
  const clientAsker = createClientAsker(wire, () => clientElicitation);

  async function onServerElicit(m: Msg) {
    const id = m.id as Id;
    const stop = new AbortController();
    elicitations.set(id, stop);
    try {
      const answer = await answerElicitation(policy, m.params ?? {}, stop.signal, clientAsker);
      // Cancelled by the server (or the relay closing): a cancelled request gets no response.
      if (!stop.signal.aborted) await toServer({ jsonrpc: '2.0', id, result: { ...answer } });
    } finally {
      elicitations.delete(id);
    }
  }

  async function onInputRequired(original: Msg, first: Record<string, unknown>) {
    const stop = new AbortController();
    inFlight.set(original.id as Id, stop);
    try {
      await answerInputRequired(wire, policy, original, first, stop.signal);
    } finally {
      inFlight.delete(original.id as Id);
    }
  }

  function fromClient(raw: JSONRPCMessage) {
    const m = raw as Msg;
    if (m.method === undefined) {
      // A response: to the relay's own request (a forwarded elicitation), or the server's.
      const mine = m.id !== undefined ? awaiting.get(m.id) : undefined;
      if (mine && m.id !== undefined) {
        awaiting.delete(m.id);
        return mine(m);
      }
      return void toServer(m);
    }
    if (m.id === undefined) {
      if (m.method === 'notifications/cancelled') {
        const target = m.params?.requestId as Id | undefined;
        if (target !== undefined) inFlight.get(target)?.abort('the client cancelled the call');
      }
      return void toServer(m);
    }
    const out: Msg = { ...m, params: m.params ? { ...m.params } : m.params };
    if (m.method === 'initialize' && out.params) {
      initIds.add(m.id);
      const caps = isObject(out.params.capabilities) ? out.params.capabilities : {};
      clientElicitation = isObject(caps.elicitation) ? caps.elicitation : undefined;
      out.params.capabilities = { ...caps, elicitation: BOTH_MODES };
    }
    const meta = out.params && isObject(out.params._meta) ? out.params._meta : undefined;
    if (out.params && meta && isObject(meta[CAPS_META])) {
      // 2026-07-28: capabilities travel with every request; the relay declares elicitation on each.
      out.params._meta = { ...meta, [CAPS_META]: { ...meta[CAPS_META], elicitation: BOTH_MODES } };
      const version = meta[VERSION_META];
      if (typeof version === 'string') o.server.setProtocolVersion?.(version);
    }
    if (MRTR_METHODS.has(m.method)) retryable.set(m.id, out);
    return void toServer(out);
  }

  // The name the person reads: 2025 servers give it in `initialize`; 2026-07-28 ones on every result's `_meta`.
  function learnName(info: unknown) {
    if (!isObject(info)) return;
    const name =
      (typeof info.title === 'string' && info.title) || (typeof info.name === 'string' && info.name);
    if (name) serverInfoName = name;
  }

  function fromServer(raw: JSONRPCMessage) {
    const m = raw as Msg;
    if (m.method === undefined) {
      const id = m.id as Id;
      if (isObject(m.result) && isObject(m.result._meta)) learnName(m.result._meta[SERVER_INFO_META]);
      const mine = awaiting.get(id);
      if (mine) {
        awaiting.delete(id);
        return mine(m);
      }
      const original = retryable.get(id);
      retryable.delete(id);
      if (initIds.delete(id) && isObject(m.result)) {
        learnName(m.result.serverInfo);
        if (typeof m.result.protocolVersion === 'string')
          o.server.setProtocolVersion?.(m.result.protocolVersion);
      }
      if (original && isRelayedInputRequired(m.result)) {
        track(onInputRequired(original, m.result), 'input_required');
        return;
      }
      return void toClient(m);
    }
    if (m.id !== undefined && m.method === 'elicitation/create') {
      track(onServerElicit(m), 'elicitation');
      return;
    }
    if (m.id === undefined && m.method === 'notifications/cancelled') {
      const target = m.params?.requestId as Id | undefined;
      const handled = target !== undefined ? elicitations.get(target) : undefined;
      if (handled) return void handled.abort('the server cancelled its ask');
    }
    return void toClient(m);
  }

  /** Asks being answered; on close they are aborted and given a moment to withdraw their screens. */
  const running = new Set<Promise<void>>();
  function track(work: Promise<void>, what: string) {
    const p = work.catch((err: Error) => log(`${what} failed: ${err.message}`));
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  async function shutDown() {
    if (closing) return;
    closing = true;
    for (const c of [...elicitations.values(), ...inFlight.values()]) c.abort('the relay is closing');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const withdrawn = Promise.race([
      Promise.allSettled([...running]),
      new Promise((r) => {
        timer = setTimeout(r, WITHDRAW_GRACE_MS);
      }),
    ]);
    // In parallel: a client that closes its side (an SDK stdio client) kills the relay a few seconds later.
    await Promise.allSettled([withdrawn, o.client.close(), o.server.close()]);
    clearTimeout(timer);
    await o.svc.close().catch(() => undefined);
    resolveClosed();
  }

  return {
    async start() {
      o.client.onmessage = fromClient;
      o.server.onmessage = fromServer;
      o.client.onclose = () => void shutDown();
      o.server.onclose = () => void shutDown();
      o.client.onerror = (err) => log(`client side: ${err.message}`);
      o.server.onerror = (err) => log(`server side: ${err.message}`);
      await o.server.start();
      await o.client.start();
      await closeStale(policy);
    },
    close: shutDown,
    closed,
  };
}

// What the last run left on the phone: the wrapped server that asked is gone with it (a stdio child dies with
// its relay; an HTTP server's stream closed). Its screen is withdrawn on the service (the relay is the agent
// that showed it), so the phone shows it withdrawn and refuses its taps; only when that cannot be done (no
// screen written down yet, an older service) is the person told in a chat line instead.
async function closeStale(p: PolicyOptions) {
  for (const ask of p.journal.takeStale()) {
    if (ask.screen && p.screens && (await withdrawStale(p.screens, ask.screen, p.log))) continue;
    const text = `The relay restarted, so ${ask.server}'s question is closed${ask.message ? ` ("${ask.message.slice(0, 200)}")` : ''}. Its screen no longer counts; ${ask.server} will ask again if it still needs the answer.`;
    await p.svc.say(text).catch((err: Error) => p.log(`could not close a stale ask: ${err.message}`));
  }
}

/** True when the screen is withdrawn now or was decided before (a conflict: there is nothing left to close). */
async function withdrawStale(tools: ScreenWatch, screenId: string, log: (line: string) => void) {
  try {
    await tools.call('svc_withdraw', { screen_id: screenId });
    log(`withdrew the screen the previous run left open (${screenId})`);
    return true;
  } catch (err) {
    if (err instanceof ServiceRefusedError && err.code === 'conflict') return true;
    log(`could not withdraw the previous run's screen ${screenId}: ${(err as Error).message}`);
    return false;
  }
}
