// Building a push for a group of outbox rows: the thread row (and screen) it announces, the payload the
// service worker reads, the notice of what the device will show and, for a one-tap screen, its answer token.
import { createHash } from 'node:crypto';
import { hashSecret, isoTime, mintSecret, newTimedId, type Random } from '@screen-service/registry/kernel';
import type {
  AgentRecord,
  MessageRecord,
  PushDeliveryRecord,
  PushSubscriptionRecord,
  ScreenRecord,
  Store,
} from '@screen-service/registry/model';
import { catalog } from '@screen-service/screen-lines/catalog';
import { type ScreenActions, screenActions, staleBody } from './push-actions.js';
import type { PushEvent } from './push-dispatcher.js';
import {
  MESSAGE_TTL_SECONDS,
  notificationBody,
  type PushPayload,
  REVOKED_TTL_SECONDS,
  threadTag,
  threadUrl,
} from './push-rules.js';
import type { PushRequest } from './push-transport.js';

/** RFC 8030 Topic for a thread: base64url, at most 32 characters, the same for every push of the thread. */
export function threadTopic(agentId: string): string {
  return createHash('sha256').update(agentId).digest('base64url').slice(0, 32);
}

export interface Group {
  subscription: PushSubscriptionRecord;
  kind: PushDeliveryRecord['kind'];
  agentId: string;
  userId: string;
  rows: PushDeliveryRecord[];
}

/** What sending a group needs from the dispatcher. */
export interface SendContext {
  store: Store;
  now: () => number;
  random: Random;
  appUrl: string;
  answerUrl?: string | undefined;
  emit: (e: PushEvent) => void;
  jitter: () => number;
}

/** The thread row a group announces, with what the rules of attention need to know about it. */
export interface LoadedRow {
  agent: AgentRecord;
  /** The newest row of the group (for `stale`, the answering tap). */
  message: MessageRecord;
  screen: ScreenRecord | null;
  /** The notification's actions when the screen answers with one tap. */
  actions: ScreenActions | null;
  /** The row asks something (a screen that takes an answer): it never counts against the budget. */
  actionable: boolean;
  /**
   * Urgent now ({@link urgentNow}): the agent marked it so, or its deadline's `urgent` step has come. It may
   * break through quiet hours when the person allows it, and the device keeps it on screen.
   */
  urgent: boolean;
}

/** Reads the row a `message` or `stale` group announces; null when its message or agent is gone. */
export async function loadRow(
  ctx: SendContext,
  group: Group,
  agents: Map<string, AgentRecord | null>,
): Promise<LoadedRow | null> {
  const newest = group.rows.reduce((a, b) => (b.createdAt >= a.createdAt ? b : a));
  const message = newest.messageId ? await ctx.store.threads.getMessage(newest.messageId) : null;
  if (!agents.has(group.agentId)) agents.set(group.agentId, await ctx.store.agents.get(group.agentId));
  const agent = agents.get(group.agentId);
  if (!message || !agent) return null;
  const screen =
    group.kind === 'message' && message.screenId ? await ctx.store.threads.getScreen(message.screenId) : null;
  const actions = screen ? screenActions(screen) : null;
  const asks = screen?.taps.some((t) => catalog[t.preset]?.events.some((e) => !e.quiet)) === true;
  return { agent, message, screen, actions, actionable: asks, urgent: urgentNow(message, ctx.now()) };
}

/** When an ask's deadline falls (ms, from the plan in `meta.deadline`); NaN when it has none. */
function dueAtOf(message: MessageRecord): number {
  const due = (message.meta.deadline as { due?: unknown } | undefined)?.due;
  return typeof due === 'string' ? Date.parse(due) : Number.NaN;
}

/**
 * Whether a row is urgent at `now`: the agent marked it so (issue 39), or it is an ask whose deadline's
 * `urgent` step has come while the deadline has not (ADR 0306: the time-sensitive buzz near the end).
 */
export function urgentNow(message: MessageRecord, now: number): boolean {
  if (message.meta.urgent === true) return true;
  const plan = message.meta.deadline as { steps?: unknown } | undefined;
  if (!(now < dueAtOf(message)) || !Array.isArray(plan?.steps)) return false;
  return (plan.steps as { at?: unknown; do?: unknown }[]).some(
    (step) => step?.do === 'urgent' && typeof step.at === 'number' && step.at <= now,
  );
}

/** What is left of an urgent ask's time, for its notification (`2 min left`); null without a deadline. */
export function timeLeftText(message: MessageRecord, now: number): string | null {
  const left = dueAtOf(message) - now;
  if (!(left > 0)) return null;
  if (left < 60_000) return 'Under a minute left';
  if (left < 2 * 3_600_000) return `${Math.ceil(left / 60_000)} min left`;
  return `${Math.floor(left / 3_600_000)} h left`;
}

/** The request that announces a group to its device, or null when there is nothing to announce. */
export async function payloadFor(
  ctx: SendContext,
  group: Group,
  row: LoadedRow | null,
): Promise<PushRequest | null> {
  const subscription = {
    endpoint: group.subscription.endpoint,
    keys: { p256dh: group.subscription.p256dh, auth: group.subscription.auth },
  };
  if (group.kind === 'revoked') {
    const payload: PushPayload = { kind: 'revoked', agent_id: group.agentId };
    return { subscription, payload: JSON.stringify(payload), ttl: REVOKED_TTL_SECONDS, urgency: 'low' };
  }
  if (!row) return null;
  const { agent, message, screen } = row;
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
  const body = notificationBody(message, screen, group.rows.length);
  const left = row.urgent && screen ? timeLeftText(message, ctx.now()) : null;
  const payload: PushPayload = {
    kind: 'message',
    agent_id: agent.id,
    title: agent.name,
    body: left ? `${left}: ${body}` : body,
    ...(row.urgent ? { urgent: true as const } : {}),
    tag: threadTag(agent.id),
    url: threadUrl(ctx.appUrl, agent.id, screen?.id),
    count: group.rows.length,
    message_id: message.id,
    ...(screen ? { screen_id: screen.id } : {}),
    ...(await noticeOf(ctx, group, message, screen, row.actions)),
  };
  // By kind (issue 39): a screen asks and goes at high urgency, kept by the push service until its deadline
  // (ADR 0260) when it has one; a chat line is normal.
  const urgency = screen ? 'high' : 'normal';
  const ttl = askTtlSeconds(message, ctx.now());
  return { subscription, payload: JSON.stringify(payload), ttl, urgency, topic };
}

/**
 * How long the push service keeps a buzz (RFC 8030 TTL): an ask with a deadline is worth nothing after it,
 * so its TTL ends there (0 once passed: delivered only to a device connected now); any other row 12 hours.
 */
export function askTtlSeconds(message: MessageRecord, now: number): number {
  const dueAt = dueAtOf(message);
  if (!Number.isFinite(dueAt)) return MESSAGE_TTL_SECONDS;
  return Math.max(0, Math.min(MESSAGE_TTL_SECONDS, Math.ceil((dueAt - now) / 1000)));
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
  screenChoices: ScreenActions | null,
): Promise<Pick<Extract<PushPayload, { kind: 'message' }>, 'actions' | 'answer'>> {
  const at = ctx.now();
  // The answer token lives as long as the buzz: to the ask's deadline when it has one.
  const expiresAt = at + askTtlSeconds(message, at) * 1000;
  const actions = ctx.answerUrl !== undefined ? screenChoices : null;
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
