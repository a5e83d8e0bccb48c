// Escalation that offers an ask to a shared agent's holders (issue 40, ADR 0280): at the `offer` step the same
// screen is shown in each named holder's thread; the first answer of any of them (or of the person asked)
// wins, the others are withdrawn, and the ask's own thread gets the answer marked `decided_by: escalation`.

import { shouldBuzz } from '@screen-service/push';
import { ServiceError } from '@screen-service/registry/kernel';
import type {
  DeadlineRecord,
  MessageRecord,
  NewMessage,
  Repositories,
  ScreenRecord,
  Store,
} from '@screen-service/registry/model';
import type { ScreenLinesPort } from '@screen-service/screen-rules';
import {
  computeTap,
  type DeadlinePlan,
  type DeadlineStep,
  readPlan,
  tapMeta,
} from '@screen-service/screen-rules';
import { type WithdrawWrites, withdrawIn, withdrawOffersIn } from './screen-withdraw.js';

/** Whether a deadline row takes part in an offer: an ask with an `offer` step, or a screen offered. */
export function hasOffers(d: DeadlineRecord | null): boolean {
  if (!d) return false;
  const plan = readPlan(d.plan);
  return plan.offer_of !== undefined || (plan.steps ?? []).some((s) => s.do === 'offer');
}

/**
 * At show time: every holder an `offer` step names holds a live share of the agent, so the ask is never
 * planned for someone it cannot reach. `INVALID_INPUT` names the step's `to`.
 */
export async function checkOfferHolders(store: Store, agentId: string, plan: DeadlinePlan): Promise<void> {
  for (const [i, step] of plan.steps.entries()) {
    for (const holder of step.to ?? []) {
      if (await store.shares.liveGrant(agentId, holder)) continue;
      throw new ServiceError(
        'INVALID_INPUT',
        `deadline.escalate: ${holder} does not hold a share of this agent; an offer goes only to its holders.`,
        { field: `deadline.escalate[${i}].to` },
      );
    }
  }
}

/**
 * Inside the step's transaction: shows the ask's screen in each holder's thread (a holder whose share was
 * taken back since is skipped), each with a deadline row that follows the ask's (`offer_of`), and buzzes them
 * as any screen does. Returns the rows written and whether a push was queued.
 */
export async function offerIn(
  tx: Repositories,
  w: Pick<WithdrawWrites, 'newId' | 'pageVersion'>,
  d: DeadlineRecord,
  step: DeadlineStep,
  at: number,
): Promise<{ rows: MessageRecord[]; pushed: boolean }> {
  const origin = await tx.threads.getScreen(d.screenId);
  const agent = await tx.agents.get(d.agentId);
  if (!origin || !agent) return { rows: [], pushed: false };
  const shown = await tx.threads.getMessage(origin.messageId);
  const plan = readPlan(d.plan);
  const rows: MessageRecord[] = [];
  let pushed = false;
  for (const holder of step.to ?? []) {
    const grant = await tx.shares.liveGrant(d.agentId, holder);
    if (!grant) continue;
    const screenId = w.newId('scr_');
    const follows = { due: plan.due, defaults: [], steps: [{ at: d.dueAt + 1, do: 'deadline' }] };
    const row: NewMessage = {
      id: w.newId('msg_'),
      userId: holder,
      agentId: d.agentId,
      sender: 'agent',
      kind: 'screen',
      body: origin.lines,
      meta: {
        ...(typeof shown?.meta.text === 'string' ? { text: shown.meta.text } : {}),
        deadline: { ...follows, offer_of: origin.id },
      },
      connectorId: shown?.connectorId ?? null,
      createdAt: at,
    };
    const { message } = await tx.threads.appendScreen(
      row,
      { id: screenId, lines: origin.lines, ops: origin.ops, taps: origin.taps },
      w.pageVersion(),
    );
    // Decided by the ask's own deadline (it withdraws this screen); this row only sweeps up after it.
    await tx.deadlines.create({
      screenId,
      userId: holder,
      agentId: d.agentId,
      dueAt: d.dueAt,
      nextAt: d.dueAt + 1,
      plan: { ...follows, offer_of: origin.id },
      createdAt: at,
    });
    await tx.deadlines.addOffer({
      screenId,
      originId: origin.id,
      userId: holder,
      agentId: d.agentId,
      createdAt: at,
    });
    const key = { agentId: d.agentId, userId: holder };
    const open = await tx.push.isOpen(key, at);
    if (shouldBuzz({ open, agentMuted: agent.pushMuted, grantMuted: grant.pushMuted })) {
      await tx.push.enqueueMessage({ id: w.newId('push_'), ...key, messageId: message.id, at });
      pushed = true;
    }
    rows.push(message);
  }
  return { rows, pushed };
}

/** The answer as the ask's own thread keeps it: the holder's tap on the ask's screen, marked as escalation. */
function escalationRow(
  origin: ScreenRecord,
  answer: MessageRecord,
  who: { id: string; name: string },
  at: number,
  screenLines: ScreenLinesPort,
): NewMessage {
  const { screen: _offered, ...event } = (answer.meta.event ?? {}) as Record<string, unknown>;
  const marks = { decided_by: 'escalation', step: 'offer', by: answer.userId };
  const tap = computeTap(origin, event, screenLines, marks);
  return {
    id: who.id,
    userId: origin.userId,
    agentId: origin.agentId,
    sender: 'person',
    kind: 'tap',
    body: tap.line,
    meta: {
      ...tapMeta(tap, 'escalation'),
      ...marks,
      // What the owner's phone shows under the screen ("Answered by Bea"); kept out of the event, so the
      // agent reads the holder's id only, as before.
      by_name: who.name,
    },
    screenId: origin.id,
    createdAt: at,
  };
}

/**
 * Inside an answer's transaction, after its row: the first answer of an ask offered to holders wins. The
 * other offered screens are withdrawn (screen and notification); an answer from a holder also lands in the
 * ask's own thread (signed, `how: escalation`), whose notifications close. Returns the rows to publish and
 * the stale pushes queued.
 */
export async function settleOffersIn(
  tx: Repositories,
  w: WithdrawWrites & { screenLines: ScreenLinesPort },
  screen: ScreenRecord,
  d: DeadlineRecord,
  answer: MessageRecord,
): Promise<{ rows: MessageRecord[]; stale: number }> {
  const at = answer.createdAt;
  const originId = readPlan(d.plan).offer_of ?? screen.id;
  const rows: MessageRecord[] = [];
  let stale = 0;
  for (const o of await withdrawOffersIn(tx, w, originId, at, 'offer', screen.id)) {
    rows.push(o.message);
    stale += o.stale;
  }
  if (originId === screen.id) return { rows, stale };
  const origin = await tx.threads.getScreen(originId);
  if (!origin) return { rows, stale };
  // The agent reads the answer once, in the ask's own thread: the holder's row is handled there and then.
  await tx.threads.markRowsHandled(
    { agentId: answer.agentId, userId: answer.userId },
    [answer.id],
    at,
    w.pageVersion(),
  );
  // The owner already sees their holders by first name and email (the Share section): the same here.
  const holder = await tx.users.findById(answer.userId);
  const name = holder?.firstName?.trim() || holder?.email || 'a holder';
  const m = await tx.threads.append(
    escalationRow(origin, answer, { id: w.newId('msg_'), name }, at, w.screenLines),
    w.pageVersion(),
  );
  if (w.signer) await w.signer.write(tx, m, origin, { user: answer.userId });
  rows.push(m);
  const shown = await tx.push.closeNotices(origin.id, at);
  if (shown.length > 0) {
    stale += await tx.push.enqueueStale({
      id: w.newId('push_'),
      userId: origin.userId,
      agentId: origin.agentId,
      messageId: m.id,
      subscriptionIds: [...new Set(shown.map((n) => n.subscriptionId))],
      at,
    });
  }
  return { rows, stale };
}

/** The sweeper's clean-up of an offered screen whose ask decided without withdrawing it. */
export async function sweepOfferedIn(tx: Repositories, w: WithdrawWrites, d: DeadlineRecord, at: number) {
  const screen = await tx.threads.getScreen(d.screenId);
  if (!screen) {
    await tx.deadlines.settle(d.screenId, at, 'withdrawn');
    return null;
  }
  return withdrawIn(tx, w, screen, at, 'deadline');
}
