// The push sender: drains the durable outbox off the request path. Rows of one thread for one device
// collapse into one push (the newest row, with a count); a thread that buzzed moments ago waits out the
// collapse window and then gets one update; 404/410 remove the device; 429/5xx back off (Retry-After).
import { createHash } from 'node:crypto';
import {
  type Clock,
  hashSecret,
  isoTime,
  mintSecret,
  newTimedId,
  type Random,
  systemClock,
  systemRandom,
} from '@screen-service/registry/kernel';
import type {
  AgentRecord,
  MessageRecord,
  PushDeliveryRecord,
  PushSubscriptionRecord,
  ScreenRecord,
  Store,
} from '@screen-service/registry/model';
import { screenActions, staleBody } from './push-actions.js';
import {
  DEFAULT_COLLAPSE_WINDOW_MS,
  MAX_PUSH_ATTEMPTS,
  MESSAGE_TTL_SECONDS,
  notificationBody,
  type PushPayload,
  REVOKED_TTL_SECONDS,
  retryDelayMs,
  threadTag,
  threadUrl,
} from './push-rules.js';
import type { PushOutcome, PushRequest, PushTransport } from './push-transport.js';

/** Something the sender did that an operator may want to log. */
export type PushEvent =
  | { type: 'sent'; subscriptionId: string; agentId: string; kind: PushDeliveryRecord['kind']; rows: number }
  | { type: 'gone'; subscriptionId: string; httpStatus: number }
  | { type: 'retry'; subscriptionId: string; attempts: number; delayMs: number; reason: string }
  | { type: 'dropped'; subscriptionId: string; reason: string }
  | { type: 'error'; error: unknown };

/** What one pass over the outbox did. */
export interface PushTickReport {
  sent: number;
  gone: number;
  retried: number;
  dropped: number;
  /** Rows settled without a push: the thread was open by the time they were due, or their row is gone. */
  suppressed: number;
  /** Rows held back to the end of their thread's collapse window. */
  deferred: number;
}

export interface PushDispatcherOptions {
  store: Store;
  transport: PushTransport;
  /** The app's public address: a notification tap opens `<appUrl>/#/a/<agent>`. */
  appUrl: string;
  /**
   * Where a notification's action posts its answer (the person's API `POST /push/answer`, issue 39); absent:
   * notifications carry no actions and no answer token.
   */
  answerUrl?: string;
  now?: Clock;
  random?: Random;
  /** After a buzz for a thread, later rows wait this long and go as one update (default 5 s). */
  collapseWindowMs?: number;
  /** Rows read per pass (default 200). */
  batchSize?: number;
  /** Pushes in flight at once (default 16). */
  concurrency?: number;
  /** How often the loop looks at the outbox when nothing woke it (default 1 s). */
  pollMs?: number;
  onEvent?: (event: PushEvent) => void;
}

export interface PushDispatcher {
  /** One pass over the rows due now. */
  tick(): Promise<PushTickReport>;
  /** Starts the loop (passes on `wake()`, on due rows and every `pollMs`). */
  start(): void;
  /** Stops the loop and waits for the pass in flight. */
  stop(): Promise<void>;
  /** Runs a pass soon (a write queued a push). */
  wake(): void;
}

/** RFC 8030 Topic for a thread: base64url, at most 32 characters, the same for every push of the thread. */
export function threadTopic(agentId: string): string {
  return createHash('sha256').update(agentId).digest('base64url').slice(0, 32);
}

interface Group {
  subscription: PushSubscriptionRecord;
  kind: PushDeliveryRecord['kind'];
  agentId: string;
  userId: string;
  rows: PushDeliveryRecord[];
}

/** What sending a group needs from the dispatcher. */
interface SendContext {
  store: PushDispatcherOptions['store'];
  now: () => number;
  random: Random;
  appUrl: string;
  answerUrl: string | undefined;
  emit: (e: PushEvent) => void;
  jitter: () => number;
}

/** The request that announces a group to its device, or null when its message or agent is gone. */
async function payloadFor(
  ctx: SendContext,
  group: Group,
  agents: Map<string, AgentRecord | null>,
): Promise<PushRequest | null> {
  const subscription = {
    endpoint: group.subscription.endpoint,
    keys: { p256dh: group.subscription.p256dh, auth: group.subscription.auth },
  };
  if (group.kind === 'revoked') {
    const payload: PushPayload = { kind: 'revoked', agent_id: group.agentId };
    return { subscription, payload: JSON.stringify(payload), ttl: REVOKED_TTL_SECONDS, urgency: 'low' };
  }
  const newest = group.rows.reduce((a, b) => (b.createdAt >= a.createdAt ? b : a));
  const message = newest.messageId ? await ctx.store.threads.getMessage(newest.messageId) : null;
  if (!agents.has(group.agentId)) agents.set(group.agentId, await ctx.store.agents.get(group.agentId));
  const agent = agents.get(group.agentId);
  if (!message || !agent) return null;
  const topic = threadTopic(agent.id);
  if (group.kind === 'stale') {
    if (!message.screenId) return null;
    const payload: PushPayload = {
      kind: 'stale',
      agent_id: agent.id,
      title: agent.name,
      body: staleBody(message),
      tag: threadTag(agent.id),
      url: threadUrl(ctx.appUrl, agent.id, message.screenId),
      screen_id: message.screenId,
    };
    // Normal urgency: the device should drop its stale actions soon, but nothing alerts.
    return {
      subscription,
      payload: JSON.stringify(payload),
      ttl: MESSAGE_TTL_SECONDS,
      urgency: 'normal',
      topic,
    };
  }
  const screen = message.screenId ? await ctx.store.threads.getScreen(message.screenId) : null;
  const payload: PushPayload = {
    kind: 'message',
    agent_id: agent.id,
    title: agent.name,
    body: notificationBody(message, screen, group.rows.length),
    tag: threadTag(agent.id),
    url: threadUrl(ctx.appUrl, agent.id, screen?.id),
    count: group.rows.length,
    message_id: message.id,
    ...(screen ? { screen_id: screen.id } : {}),
    ...(await noticeOf(ctx, group, message, screen)),
  };
  return { subscription, payload: JSON.stringify(payload), ttl: MESSAGE_TTL_SECONDS, urgency: 'high', topic };
}

/**
 * Records what this device will show (issue 39): a stale notification is replaced only while it is the
 * device's newest for the thread. A one-tap screen's notice holds the hash of a fresh single-use answer
 * token; the token itself goes only into this push (encrypted for the device) and the actions with it.
 */
async function noticeOf(
  ctx: SendContext,
  group: Group,
  message: MessageRecord,
  screen: ScreenRecord | null,
): Promise<Pick<Extract<PushPayload, { kind: 'message' }>, 'actions' | 'answer'>> {
  const at = ctx.now();
  const expiresAt = at + MESSAGE_TTL_SECONDS * 1000;
  const actions = screen && ctx.answerUrl !== undefined ? screenActions(screen) : null;
  const token = actions ? mintSecret('svc_nt_', ctx.random) : null;
  await ctx.store.push.saveNotice({
    id: newTimedId('pn_', at, ctx.random),
    userId: group.userId,
    agentId: group.agentId,
    subscriptionId: group.subscription.id,
    messageId: message.id,
    screenId: screen?.id ?? null,
    tokenHash: token ? hashSecret(token) : null,
    tapId: actions?.tapId ?? null,
    choices: actions?.choices.map((c) => c.value) ?? [],
    createdAt: at,
    expiresAt,
    usedAt: null,
    closedAt: null,
  });
  if (!actions || !token || ctx.answerUrl === undefined) return {};
  return {
    actions: actions.choices,
    answer: { url: ctx.answerUrl, token, expires_at: isoTime(expiresAt) },
  };
}

/** Settles a group's rows by the push service's answer: sent, gone, retried with back-off, or dropped. */
async function settleOutcome(ctx: SendContext, group: Group, outcome: PushOutcome, report: PushTickReport) {
  const ids = group.rows.map((r) => r.id);
  const sub = group.subscription.id;
  if (outcome.status === 'sent') {
    const messageIds = group.rows.map((r) => r.messageId).filter((m): m is string => m !== null);
    // Both in the same commit (the store groups the writes of a turn).
    await Promise.all([ctx.store.push.settle(ids), ctx.store.push.markIntentsSent(messageIds, ctx.now())]);
    report.sent++;
    ctx.emit({
      type: 'sent',
      subscriptionId: sub,
      agentId: group.agentId,
      kind: group.kind,
      rows: ids.length,
    });
  } else if (outcome.status === 'gone') {
    await ctx.store.push.removeSubscriptionById(sub);
    report.gone++;
    ctx.emit({ type: 'gone', subscriptionId: sub, httpStatus: outcome.httpStatus });
  } else if (outcome.status === 'retry') {
    const attempts = Math.max(...group.rows.map((r) => r.attempts)) + 1;
    if (attempts >= MAX_PUSH_ATTEMPTS) {
      await ctx.store.push.settle(ids);
      report.dropped++;
      ctx.emit({
        type: 'dropped',
        subscriptionId: sub,
        reason: `gave up after ${attempts} tries: ${outcome.reason}`,
      });
      return;
    }
    const delayMs = retryDelayMs(attempts, outcome.retryAfterMs, ctx.jitter());
    await ctx.store.push.postpone(ids, ctx.now() + delayMs, true);
    report.retried++;
    ctx.emit({ type: 'retry', subscriptionId: sub, attempts, delayMs, reason: outcome.reason });
  } else {
    await ctx.store.push.settle(ids);
    report.dropped++;
    ctx.emit({ type: 'dropped', subscriptionId: sub, reason: outcome.reason });
  }
}

/**
 * Creates the sender over the store's outbox.
 *
 * @example
 * ```ts
 * const sender = createPushDispatcher({ store, transport: createWebPushTransport({ vapid }), appUrl });
 * sender.start();
 * // ... on shutdown
 * await sender.stop();
 * ```
 */
export function createPushDispatcher(options: PushDispatcherOptions): PushDispatcher {
  const { store, transport } = options;
  const now = options.now ?? systemClock;
  const random = options.random ?? systemRandom;
  const windowMs = options.collapseWindowMs ?? DEFAULT_COLLAPSE_WINDOW_MS;
  const batchSize = options.batchSize ?? 200;
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 1000;
  const emit = (e: PushEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      // A failing logger must not stop the sender.
    }
  };
  // When each (device, thread) last buzzed. In memory: after a restart at worst one extra update goes out.
  const lastBuzz = new Map<string, number>();

  const jitter = () => (random.bytes(1)[0] ?? 0) / 256;
  const ctx: SendContext = {
    store,
    now,
    random,
    appUrl: options.appUrl,
    answerUrl: options.answerUrl,
    emit,
    jitter,
  };

  async function sendGroup(group: Group, agents: Map<string, AgentRecord | null>, report: PushTickReport) {
    const ids = group.rows.map((r) => r.id);
    const at = now();
    const buzzKey = `${group.subscription.id} ${group.agentId}`;
    if (group.kind === 'message') {
      const last = lastBuzz.get(buzzKey);
      const first = group.rows.every((r) => r.attempts === 0);
      if (first && last !== undefined && at < last + windowMs) {
        await store.push.postpone(ids, last + windowMs, false);
        report.deferred += ids.length;
        return;
      }
      // Opened since the write: the person is looking at it, so the buzz is moot.
      if (await store.push.isOpen({ agentId: group.agentId, userId: group.userId }, at)) {
        await store.push.settle(ids);
        report.suppressed += ids.length;
        return;
      }
    }
    const request = await payloadFor(ctx, group, agents);
    if (!request) {
      await store.push.settle(ids);
      report.suppressed += ids.length;
      return;
    }
    if (group.kind === 'message') lastBuzz.set(buzzKey, at);
    let outcome: PushOutcome;
    try {
      outcome = await transport.send(request);
    } catch (error) {
      outcome = { status: 'retry', httpStatus: null, reason: String(error) };
    }
    await settleOutcome(ctx, group, outcome, report);
  }

  // Pipelined passes (ADR 0205): a pass reads the due rows that are not already being sent and queues their
  // groups; up to `concurrency` groups are sent at once whichever pass queued them, so a row written while a
  // pass's sends are in flight starts at once instead of after the whole pass. A (device, thread) group in
  // flight holds back that thread's newer rows until it settled, so they collapse as before.
  const inFlight = new Set<string>();
  const busyThreads = new Set<string>();
  const work: (() => Promise<void>)[] = [];
  const sending = new Set<Promise<void>>();
  let senders = 0;

  function pump() {
    while (senders < concurrency && work.length > 0) {
      const job = work.shift()!;
      senders++;
      const done = job().finally(() => {
        senders--;
        sending.delete(done);
        pump();
      });
      sending.add(done);
    }
  }

  /** Queues the groups of the rows due now; resolves when they are queued, with their completion. */
  async function pass(): Promise<{
    report: PushTickReport;
    done: Promise<unknown>;
    full: boolean;
    queued: number;
  }> {
    const report: PushTickReport = { sent: 0, gone: 0, retried: 0, dropped: 0, suppressed: 0, deferred: 0 };
    const due = await store.push.due(now(), batchSize + inFlight.size);
    const groups = new Map<string, Group>();
    let fresh = 0;
    for (const { row, subscription } of due) {
      if (inFlight.has(row.id)) continue;
      fresh++;
      const key = `${row.subscriptionId} ${row.kind} ${row.agentId}`;
      if (busyThreads.has(key)) continue;
      let g = groups.get(key);
      if (!g) {
        g = { subscription, kind: row.kind, agentId: row.agentId, userId: row.userId, rows: [] };
        groups.set(key, g);
      }
      g.rows.push(row);
    }
    const agents = new Map<string, AgentRecord | null>();
    const dones: Promise<void>[] = [];
    for (const [key, g] of groups) {
      for (const r of g.rows) inFlight.add(r.id);
      busyThreads.add(key);
      dones.push(
        new Promise<void>((resolve) => {
          work.push(async () => {
            let ok = true;
            try {
              await sendGroup(g, agents, report);
            } catch (error) {
              ok = false;
              emit({ type: 'error', error });
            } finally {
              for (const r of g.rows) inFlight.delete(r.id);
              busyThreads.delete(key);
              resolve();
            }
            // Once the queue drained, rows held back behind this group (or past a full batch) are read; a
            // failing store waits a poll instead of spinning.
            if (ok && work.length === 0) wake();
          });
        }),
      );
    }
    pump();
    return { report, done: Promise.all(dones), full: fresh >= batchSize, queued: groups.size };
  }

  async function tick(): Promise<PushTickReport> {
    const p = await pass();
    await p.done;
    if (p.full) wake();
    return p.report;
  }

  let running = false;
  let loop: Promise<void> | null = null;
  let pending = false;
  let wakeUp: (() => void) | null = null;

  function wake() {
    pending = true;
    wakeUp?.();
  }

  async function sleep(ms: number) {
    if (pending) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run() {
    while (running) {
      pending = false;
      let failed = false;
      try {
        // While groups wait for a free sender there is nothing to gain from reading the outbox again (and
        // a read per write would cost more than the sends); the last queued group wakes the loop.
        if (work.length === 0) await pass();
      } catch (error) {
        failed = true;
        emit({ type: 'error', error });
      }
      if (!running) break;
      let delay = pollMs;
      // Rows being sent stay due until they settle; each settled group wakes the loop, so only an idle
      // sender looks at when the next row falls due.
      if (inFlight.size === 0) {
        try {
          const next = await store.push.nextDueAt();
          // Rows still due after a pass that failed (a failing store): wait a little, do not spin.
          if (next !== null && !failed) delay = Math.max(0, Math.min(pollMs, next - now()));
          else if (next !== null) delay = Math.max(Math.min(pollMs, next - now()), Math.min(pollMs, 100));
        } catch (error) {
          emit({ type: 'error', error });
        }
      }
      await sleep(delay);
    }
  }

  return {
    tick,
    wake,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      loop = null;
      // The sends in flight finish and settle (or are left due for the next start).
      while (sending.size > 0 || work.length > 0) await Promise.all([...sending]);
    },
  };
}
