// One host message stream (ADR 0130): replays what a connection is owed after its cursor, then forwards new
// rows live in seq order, following grants and removal; split from host-transport.ts (issue 36 size rule).
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { connectionState } from '@screen-service/registry/hosts';
import type { Notifier } from '@screen-service/registry/kernel';
import {
  type AgentRecord,
  ClaimRefused,
  type GrantRecord,
  type MessageRecord,
  type Store,
} from '@screen-service/registry/model';
import { whileLive } from '../threads/claim-guard.js';
import type { HostMessage, HostStreamHandlers, StreamEnd } from './host-transport.js';

/** Rows read per page when a stream replays what it owes. */
const REPLAY_PAGE = 100;

/** What a stream needs from the transport that opens it. */
export interface HostStreamDeps {
  store: Store;
  notifier: Notifier;
  shutdown?: AbortSignal;
  served(p: ConnectionPrincipal): Promise<AgentRecord[]>;
  toHostMessages(rows: MessageRecord[], agents: Map<string, AgentRecord>): Promise<HostMessage[]>;
}

/**
 * The shared threads a connection serves besides its owner's (doc2): live grants of its agents, only while
 * the agent is client-safe. Keyed by session key.
 */
async function sharedThreads(
  store: Store,
  agents: Map<string, AgentRecord>,
): Promise<Map<string, GrantRecord>> {
  const safe = [...agents.values()].filter((a) => a.clientSafe).map((a) => a.id);
  const grants = await store.shares.liveForAgents(safe);
  return new Map(grants.map((g) => [`${g.agentId}~${g.userId}`, g]));
}

/**
 * What the owner's thread and each shared thread owe after `after`, merged so rows leave in seq order. Each
 * read is guarded by the stream's connection (ADR 0301): refused, it throws {@link ClaimRefused}.
 */
async function owedAfter(
  store: Store,
  p: ConnectionPrincipal,
  agents: Map<string, AgentRecord>,
  shared: Map<string, GrantRecord>,
  after: number,
  ended: () => boolean,
): Promise<MessageRecord[]> {
  const threads = new Map<string, string[]>([[p.userId, [...agents.keys()]]]);
  for (const g of shared.values()) threads.set(g.userId, [...(threads.get(g.userId) ?? []), g.agentId]);
  const owed: MessageRecord[] = [];
  for (const [u, agentIds] of threads) {
    let from = after;
    for (;;) {
      const page = await store.threads.pendingForHost({
        userId: u,
        agentIds,
        afterSeq: from,
        limit: REPLAY_PAGE,
        guard: { connectorId: p.connectorId },
      });
      owed.push(...page);
      if (page.length < REPLAY_PAGE || ended()) break;
      from = page[page.length - 1]!.seq;
    }
  }
  return owed;
}

/**
 * Opens one stream: replays what is owed after `handlers.after`, then forwards new rows live. Returns `close`.
 *
 * @example
 * ```ts
 * const close = await openHostStream(deps, principal, { after: 41, send: write, end: () => res.end() });
 * ```
 */
export async function openHostStream(
  deps: HostStreamDeps,
  p: ConnectionPrincipal,
  handlers: HostStreamHandlers,
): Promise<() => void> {
  const { store, notifier, served, toHostMessages } = deps;
  const options = { shutdown: deps.shutdown };
  let agents = new Map((await served(p)).map((a) => [a.id, a]));
  let shared = await sharedThreads(store, agents);
  let cursor = handlers.after ?? 0;
  let replaying = true;
  let ended = false;
  const held: MessageRecord[] = [];
  let chain = Promise.resolve();

  const finish = (reason: StreamEnd) => {
    if (ended) return;
    ended = true;
    stop();
    handlers.end(reason);
  };
  // A row of the owner's thread, or of a shared thread served now.
  const allowed = (r: MessageRecord) =>
    agents.has(r.agentId) && (r.userId === p.userId || shared.has(`${r.agentId}~${r.userId}`));
  const owed = (after: number) => owedAfter(store, p, agents, shared, after, () => ended);
  const deliver = async (rows: MessageRecord[]) => {
    const fresh = rows.filter((r) => r.seq > cursor && allowed(r)).sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0 || ended) return;
    for (const m of await toHostMessages(fresh, agents)) {
      if (ended || m.seq <= cursor) continue;
      cursor = m.seq;
      handlers.send(m);
    }
  };
  // Events are handled one after another so rows leave in seq order. A read refused because the connection
  // is no longer live (ADR 0301) ends the stream as a removal does; it sent nothing of that read.
  const queue = (task: () => Promise<void>) => {
    chain = chain.then(task).catch((err: unknown) => {
      if (err instanceof ClaimRefused) finish('revoked');
    });
  };
  // A live row is a wake-up: what is owed after the cursor is read back and sent in seq order. Events
  // from other instances can arrive out of seq order (seq n+1's before seq n's); the store commits one
  // connection's rows in seq order, so reading at n+1's event finds n too. One read is queued at a time.
  let pullQueued = false;
  const pull = () => {
    if (pullQueued) return;
    pullQueued = true;
    queue(async () => {
      pullQueued = false;
      await deliver(await owed(cursor));
    });
  };
  const listener = (e: Parameters<Parameters<Notifier['subscribe']>[1]>[0]) => {
    if (ended) return;
    if (e.type === 'message') {
      const m = e.message;
      if (m.sender !== 'person' || m.handledAt !== null || !allowed(m)) return;
      if (replaying) held.push(m);
      else pull();
    } else if (e.type === 'agents') {
      // Removing a connection publishes `agents`: check at once, so a revoked stream closes now. Grants
      // and client-safe changes publish it too: the shared threads served are read again.
      queue(async () => {
        const c = await store.connectors.get(p.connectorId);
        if (connectionState(c) !== 'live') return finish('revoked');
        agents = new Map((await served(p)).map((a) => [a.id, a]));
        const before = shared;
        shared = await sharedThreads(store, agents);
        // Closed while reading: following now would subscribe again after stop(), a listener for good.
        if (ended) return;
        follow();
        // A thread served again (agent safe again) or anew owes what its holder wrote meanwhile, even
        // below the cursor: those rows were held back, never sent.
        for (const [key, g] of shared) {
          if (before.has(key)) continue;
          const pending = await store.threads.pendingForHost({
            userId: g.userId,
            agentIds: [g.agentId],
            afterSeq: 0,
            limit: REPLAY_PAGE,
            guard: { connectorId: p.connectorId },
          });
          for (const m of await toHostMessages(pending, agents)) {
            if (ended) return;
            cursor = Math.max(cursor, m.seq);
            handlers.send(m);
          }
        }
      });
    } else if (e.type === 'resync') {
      // Events may have been lost between instances: whatever is owed after the cursor goes out now.
      if (!replaying) queue(async () => deliver(await owed(cursor)));
    }
  };
  // The owner's events, and each holder's (their rows are published under their own user id).
  const subs = new Map<string, () => void>([[p.userId, notifier.subscribe(p.userId, listener)]]);
  const follow = () => {
    if (ended) return;
    const holders = new Set([p.userId, ...[...shared.values()].map((g) => g.userId)]);
    for (const [u, off] of subs) {
      if (holders.has(u)) continue;
      off();
      subs.delete(u);
    }
    for (const u of holders) if (!subs.has(u)) subs.set(u, notifier.subscribe(u, listener));
  };
  follow();
  const unsubscribe = () => {
    for (const off of subs.values()) off();
    subs.clear();
  };
  const onShutdown = () => finish('shutdown');
  options.shutdown?.addEventListener('abort', onShutdown);
  function stop() {
    unsubscribe();
    options.shutdown?.removeEventListener('abort', onShutdown);
  }
  try {
    // Refused at the replay: the opener gets CONNECTOR_REVOKED or SUSPENDED, nothing sent.
    await deliver(await whileLive(() => owed(cursor)));
    replaying = false;
    // Rows written during the replay: read back after their events, like live ones.
    if (held.splice(0).length > 0) pull();
  } catch (err) {
    stop();
    throw err;
  }
  if (options.shutdown?.aborted) finish('shutdown');
  return () => {
    ended = true;
    stop();
  };
}
