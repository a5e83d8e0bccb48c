// Writes shared by every adapter: agent rows (with the push intent), person rows, taps, answer items.

import type { ScreenWrites } from '@screen-service/agent-tables';
import { shouldBuzz } from '@screen-service/push';
import { type Receipts, type ReceiptWho, receiptText } from '@screen-service/receipts';
import type { Notifier } from '@screen-service/registry/kernel';
import { isoTime, newTimedId, type Random, systemClock, systemRandom } from '@screen-service/registry/kernel';
import type {
  AgentRecord,
  AgentRowWrite,
  MessageRecord,
  NewMessage,
  NewScreen,
  PhotoRecord,
  Repositories,
  ScreenRecord,
  Store,
} from '@screen-service/registry/model';
import type { DeadlinePlan } from '@screen-service/screen-rules';
import { computeTap, defaultScreenLines, type ScreenLinesPort, tapMeta } from '@screen-service/screen-rules';
import { writeAnswer, writeQuiet } from './answer-writes.js';
import type { RowGuard } from './host-rows.js';
import { newPageVersion } from './page-version.js';
import { withdrawScreen } from './screen-withdraw.js';

/** Dependencies of the thread operations; `now` and `newId` let tests control time and ids. */
export interface ThreadDeps {
  store: Store;
  notifier: Notifier;
  /** Defaults to @screen-service/screen-lines. */
  screenLines?: ScreenLinesPort;
  now?: () => number;
  /** Randomness for ids (default: the OS CSPRNG). */
  random?: Random;
  newId?: (prefix: string) => string;
  /** Aborted when the process shuts down: waiting `answers` calls return [] at once. */
  shutdown?: AbortSignal;
  /** Signed, expiring links for photos carried by answers (the server signs for 1 hour). */
  photoLinks?: (photos: PhotoRecord[]) => string[] | Promise<string[]>;
  /**
   * Called with a checked tap before it is written: settles a service card (the tables' Delete / Keep) and
   * returns fields added to the event so the agent hears the outcome; null for any other screen.
   */
  beforeTap?: (screen: ScreenRecord, event: unknown) => Promise<Record<string, unknown> | null>;
  /**
   * Runs a screen's `table`, `put` and `drop` lines on the agent's one set of tables (ADR 0250) before the
   * screen is written; `shared` when the screen goes to a thread shared with another person.
   */
  screenTables?: (agent: AgentRecord, lines: string[], shared: boolean) => Promise<ScreenWrites>;
  /**
   * Called after a write that asked for a push, so the sender wakes at once instead of at its next poll (a
   * write that found the thread open queued nothing: that pass finds nothing new).
   */
  onPushQueued?: () => void;
  /** Signs a receipt of every answer in the answer's transaction (ADR 0261); none when absent. */
  receipts?: Receipts;
  /** Called after a screen with a deadline was written, with its first step's time (wakes the sweeper). */
  onDeadlineSet?: (nextAt: number) => void;
}

/** One thing the person sent back, as `answers` returns it. */
export interface Answer {
  id: string;
  kind: 'tap' | 'text';
  /** The tap line (`[svc] <id> <preset> <key>=<value>` plus the event JSON) or the typed text. */
  text: string;
  screen_id: string | null;
  event: Record<string, unknown> | null;
  photos: string[];
  at: string;
  /** `[svc] tables ...` after a hand-over: the agent's turn opens with it (doc3 `meta.tables`), once. */
  tables?: string;
  /**
   * `default` when the service decided at the screen's deadline (ADR 0260); `escalation` when a holder the
   * ask was offered to answered it (ADR 0280, with `by`); absent for the person's own answer.
   */
  decided_by?: 'default' | 'escalation';
  /** `escalation`: the user id of the holder who answered. */
  by?: string;
  /** The step of the deadline's ladder that decided (`deadline`). */
  step?: string;
  /**
   * The service's signed receipt of this answer, when it has one: a compact JWS (format 1, ADR 0261), or the
   * JSON of `{v: 2, receipt, path, batch}` (format 2, ADR 0294).
   */
  receipt?: string;
  /** Where a tap was made: `app`, `mcp-app` (an in-chat view) or `notification` (an action, issue 39). */
  via?: string;
}

export interface TapWrite {
  message: MessageRecord;
  line: string;
  echo: string;
  handled: boolean;
}

/**
 * Whose thread of the agent a write goes to: the owner's by default; a grant holder's (doc2 shared threads,
 * keyed by (agent, holder)) with the holder's own `push_muted`.
 */
export interface ThreadTarget {
  userId: string;
  grantMuted?: boolean;
}

/** The one writer of agent rows (screens and chat lines) with their buzz; see `writeAgentRow` inside. */
function agentRowWriter(deps: ThreadDeps, newId: (prefix: string) => string) {
  const { store, notifier } = deps;
  /**
   * Writes an agent row and decides its buzz (doc1, doc2): every screen and chat line buzzes the phone
   * unless the agent (or, in a shared thread, the grant) is muted or a device holds the thread open. The
   * mutes are known before; whether the thread is open is read in the row's own transaction, and the push
   * is queued there with the row (ADR 0241), so the row and its push commit or roll back together.
   */
  return async function writeAgentRow<T>(
    agent: AgentRecord,
    target: ThreadTarget,
    at: number,
    write: (repos: Repositories) => Promise<T>,
    messageOf: (written: T) => MessageRecord,
    atomic = false,
  ): Promise<T> {
    const muted = {
      agentMuted: agent.pushMuted,
      ...(target.grantMuted === undefined ? {} : { grantMuted: target.grantMuted }),
    };
    const publish = (m: MessageRecord) =>
      notifier.publish({ type: 'message', userId: target.userId, agentId: agent.id, message: m });
    if (!shouldBuzz({ open: false, ...muted })) {
      // A write of several rows (a screen and its deadline) commits them together.
      const written = atomic ? await store.transaction((tx) => write(tx)) : await write(store);
      publish(messageOf(written));
      return written;
    }
    const key = { agentId: agent.id, userId: target.userId };
    const { written, pushed } = await store.transaction(async (tx) => {
      // Asked together: neither depends on the other, and a pipelining store sends both in one round trip.
      const [open, row] = await Promise.all([tx.push.isOpen(key, at), write(tx)]);
      if (!shouldBuzz({ open, ...muted })) return { written: row, pushed: false };
      const m = messageOf(row);
      await tx.push.enqueueMessage({
        id: newId('push_'),
        userId: m.userId,
        agentId: m.agentId,
        messageId: m.id,
        at: m.createdAt,
      });
      return { written: row, pushed: true };
    });
    // The sender wakes at once instead of at its next poll; a row that found the thread open queued nothing.
    if (pushed) deps.onPushQueued?.();
    publish(messageOf(written));
    return written;
  };
}

/**
 * The writer of an agent row without a deadline (ADR 0289): the same buzz as `writeAgentRow`, decided here
 * for each open state (`shouldBuzz`), and the row, the open state's read and the queued buzz in the store's
 * one write (on PostgreSQL one statement instead of a transaction of five).
 */
function agentRowPusher(deps: ThreadDeps, newId: (prefix: string) => string) {
  const { store, notifier } = deps;
  return async function writeWithPush(
    agent: AgentRecord,
    target: ThreadTarget,
    write: Omit<AgentRowWrite, 'push'>,
  ): Promise<{ message: MessageRecord; screen: ScreenRecord | null }> {
    const muted = {
      agentMuted: agent.pushMuted,
      ...(target.grantMuted === undefined ? {} : { grantMuted: target.grantMuted }),
    };
    const push = {
      id: newId('push_'),
      ifOpen: shouldBuzz({ open: true, ...muted }),
      ifClosed: shouldBuzz({ open: false, ...muted }),
    };
    const { pushed, ...written } = await store.threads.appendWithPush({ ...write, push });
    // The sender wakes at once instead of at its next poll; a row that found the thread open queued nothing.
    if (pushed) deps.onPushQueued?.();
    notifier.publish({
      type: 'message',
      userId: target.userId,
      agentId: agent.id,
      message: written.message,
    });
    return written;
  };
}

export type ThreadCore = ReturnType<typeof createThreadCore>;

export function createThreadCore(deps: ThreadDeps) {
  const { store, notifier } = deps;
  const screenLines = deps.screenLines ?? defaultScreenLines;
  const now = deps.now ?? systemClock;
  const random = deps.random ?? systemRandom;
  // Time-ordered: message, screen and push ids land at the right edge of their indexes (ADR 0213).
  const newId = deps.newId ?? ((prefix: string) => newTimedId(prefix, now(), random));
  /** A fresh page version for a write that changes a page (ADR 0241). */
  const pageVersion = () => newPageVersion(random);

  const writeAgentRow = agentRowWriter(deps, newId);
  const writeWithPush = agentRowPusher(deps, newId);

  return {
    now,
    newId,
    pageVersion,
    async appendAgentText(
      agent: AgentRecord,
      body: string,
      meta: Record<string, unknown>,
      connectorId: string | null,
      idemKey?: string,
      target: ThreadTarget = { userId: agent.userId },
      guard?: RowGuard,
    ) {
      const at = now();
      const row: NewMessage = {
        id: newId('msg_'),
        userId: target.userId,
        agentId: agent.id,
        sender: 'agent',
        kind: 'text',
        body,
        meta,
        connectorId,
        createdAt: at,
        ...(idemKey ? { idemKey } : {}),
      };
      const version = pageVersion();
      return (await writeWithPush(agent, target, { message: row, screen: null, version, ...guard })).message;
    },

    async appendAgentScreen(
      agent: AgentRecord,
      message: Omit<NewMessage, 'id' | 'userId' | 'agentId' | 'sender' | 'kind' | 'createdAt'>,
      screen: NewScreen,
      target: ThreadTarget = { userId: agent.userId },
      deadline?: DeadlinePlan,
      guard?: RowGuard,
    ) {
      const at = now();
      const row: NewMessage = {
        ...message,
        id: newId('msg_'),
        userId: target.userId,
        agentId: agent.id,
        sender: 'agent',
        kind: 'screen',
        createdAt: at,
      };
      // Without a deadline the screen is one write with its buzz; with one, the deadline commits with it.
      if (!deadline) {
        const w = await writeWithPush(agent, target, {
          message: row,
          screen,
          version: pageVersion(),
          ...guard,
        });
        return { message: w.message, screen: w.screen! };
      }
      const written = await writeAgentRow(
        agent,
        target,
        at,
        async (repos) => {
          const w = await repos.threads.appendScreen(row, screen, pageVersion());
          // The deadline commits with its screen: a screen is never shown without the deadline it was given.
          await repos.deadlines.create({
            screenId: screen.id,
            userId: target.userId,
            agentId: agent.id,
            dueAt: Date.parse(deadline.due),
            nextAt: deadline.steps[0]!.at,
            plan: deadline as unknown as Record<string, unknown>,
            createdAt: at,
          });
          return w;
        },
        (w) => w.message,
        true,
      );
      deps.onDeadlineSet?.(deadline.steps[0]!.at);
      return written;
    },

    async appendPersonText(
      userId: string,
      agentId: string,
      body: string,
      photoIds: string[] = [],
      idemKey?: string,
    ) {
      // A table handed to this agent: its next turn (this message) opens with the tables line, once.
      const handed = await store.relay.takeHandover(agentId);
      const tables = handed ? `[svc] tables ${handed}` : '';
      const message = await store.threads.append(
        {
          id: newId('msg_'),
          userId,
          agentId,
          sender: 'person',
          kind: 'text',
          body,
          meta: { ...(photoIds.length > 0 ? { photos: photoIds } : {}), ...(tables ? { tables } : {}) },
          createdAt: now(),
          photoIds,
          ...(idemKey ? { idemKey } : {}),
        },
        pageVersion(),
      );
      notifier.publish({ type: 'message', userId, agentId, message });
      return message;
    },

    /**
     * The one event path of a tap, from the phone, an in-chat view or a notification's action. A tap that
     * answers closes the screen's notifications (their answer tokens stop working) in the row's own write,
     * and queues the quiet replacement for the other devices that still show one (issue 39). A
     * notification's tap spends its notice (`notice`) in the same write: a second tap of it is refused.
     */
    async recordTap(
      screen: ScreenRecord,
      raw: unknown,
      opts: {
        via: 'app' | 'mcp-app' | 'notification';
        handled: boolean;
        connectorId?: string | null;
        photoIds?: string[];
        notice?: { id: string; subscriptionId: string };
        /** The sign-in and device the tap came through, for its receipt. */
        who?: ReceiptWho;
        /** The phone's answer key (ADR 0276), written once per person by the store. */
        idemKey?: string;
      },
    ): Promise<TapWrite> {
      let tap = computeTap(screen, raw, screenLines);
      const extra = deps.beforeTap ? await deps.beforeTap(screen, raw) : null;
      // The service's own fields (a tables card's outcome) are added after the person's tap was checked.
      if (extra) tap = computeTap(screen, raw, screenLines, extra);
      const at = now();
      const handled = opts.handled || tap.quiet;
      const photoIds = opts.photoIds ?? [];
      const row = tapRow(screen, tap, { ...opts, id: newId('msg_'), at, handled, photoIds });
      // An answer is checked, written and signed by writeAnswer (ADRs 0257, 0260, 0261, issue 40's tap
      // path). Quiet events are not answers: a plain write.
      const signer = !tap.quiet && deps.receipts ? await deps.receipts.signer() : null;
      const { message, stale, also } = tap.quiet
        ? { message: await writeQuiet(store, screen, row, pageVersion()), stale: 0, also: [] }
        : await writeAnswer(store, screen, row, {
            version: pageVersion(),
            pushId: newId('push_'),
            notice: opts.notice,
            signer,
            who: opts.who ?? {},
            offers: { newId, pageVersion, screenLines },
          });
      if (stale > 0) deps.onPushQueued?.();
      for (const m of [message, ...also]) {
        notifier.publish({ type: 'message', userId: m.userId, agentId: m.agentId, message: m });
      }
      return { message, line: tap.line, echo: tap.echo, handled };
    },

    toAnswers: (rows: MessageRecord[]): Promise<Answer[]> => answersOf(store, deps.photoLinks, rows),

    /** Takes a screen back (ADR 0279): no longer answerable, deadline cancelled, notifications replaced. */
    withdraw: (screen: ScreenRecord, step?: string) =>
      withdrawScreen(
        {
          store,
          notifier,
          receipts: deps.receipts,
          now,
          newId,
          pageVersion,
          onPushQueued: deps.onPushQueued,
        },
        screen,
        step,
      ),
  };
}

/** The person's tap row: the computed line, its event and where it was made (`via`). */
function tapRow(
  screen: ScreenRecord,
  tap: ReturnType<typeof computeTap>,
  o: {
    id: string;
    at: number;
    handled: boolean;
    photoIds: string[];
    via: string;
    connectorId?: string | null;
    idemKey?: string;
  },
): NewMessage {
  return {
    id: o.id,
    userId: screen.userId,
    agentId: screen.agentId,
    sender: 'person',
    kind: 'tap',
    body: tap.line,
    meta: {
      ...tapMeta(tap, o.via),
      ...(tap.quiet ? { quiet: true } : {}),
      ...(o.photoIds.length > 0 ? { photos: o.photoIds } : {}),
    },
    screenId: screen.id,
    connectorId: o.connectorId ?? null,
    createdAt: o.at,
    handledAt: o.handled ? o.at : null,
    photoIds: o.photoIds,
    ...(o.idemKey ? { idemKey: o.idemKey } : {}),
  };
}

/** Thread rows as the agent reads them (svc_answers, a host's turn): taps with their events, photos as links. */
async function answersOf(
  store: ThreadDeps['store'],
  photoLinks: ThreadDeps['photoLinks'],
  rows: MessageRecord[],
): Promise<Answer[]> {
  const photos = await store.photos.listByMessage(rows.map((r) => r.id));
  // A message names its photos in its own row (meta.photos) and binds them in the same transaction.
  // Rows written by releases before that (the attach a second write, which a crash could cut) may name
  // photos never bound: those are read by id (the same person's and
  // agent's only: the ids were checked as theirs before the message was written).
  const seen = new Set(photos.map((p) => p.id));
  for (const r of rows) {
    const named = Array.isArray(r.meta.photos) ? (r.meta.photos as unknown[]) : [];
    for (const id of named) {
      if (typeof id !== 'string' || seen.has(id)) continue;
      const p = await store.photos.get(id);
      if (p && p.userId === r.userId && p.agentId === r.agentId && (p.messageId ?? r.id) === r.id) {
        photos.push({ ...p, messageId: r.id });
        seen.add(id);
      }
    }
  }
  const links = photoLinks && photos.length > 0 ? await photoLinks(photos) : [];
  const taps = rows.filter((r) => r.kind === 'tap').map((r) => r.id);
  // A receipt as text: format 1's JWS, or format 2's proof as JSON (ADR 0294).
  const receipts = new Map(
    (await store.receipts.listByMessages(taps)).map((r) => [r.messageId, receiptText(r)]),
  );
  const linkOf = new Map(photos.map((p, i) => [p.id, links[i]]));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind === 'tap' ? 'tap' : 'text',
    text: r.body,
    screen_id: r.screenId,
    event: r.kind === 'tap' ? ((r.meta.event as Record<string, unknown> | undefined) ?? null) : null,
    photos: photos
      .filter((p) => p.messageId === r.id)
      .map((p) => linkOf.get(p.id))
      .filter((l): l is string => typeof l === 'string'),
    at: isoTime(r.createdAt),
    ...(typeof r.meta.tables === 'string' ? { tables: r.meta.tables } : {}),
    ...(r.meta.decided_by === 'default' || r.meta.decided_by === 'escalation'
      ? { decided_by: r.meta.decided_by, step: String(r.meta.step) }
      : {}),
    // Who answered an ask offered to holders (ADR 0280): the holder's user id.
    ...(r.meta.decided_by === 'escalation' && typeof r.meta.by === 'string' ? { by: r.meta.by } : {}),
    ...(receipts.has(r.id) ? { receipt: receipts.get(r.id)! } : {}),
    ...(r.kind === 'tap' && typeof r.meta.via === 'string' ? { via: r.meta.via } : {}),
  }));
}
