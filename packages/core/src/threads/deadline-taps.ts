// The tap side of a deadline (ADR 0260): a tap before it settles the screen as answered; a tap at or after
// it, or after the defaults landed, is refused with what happened instead.

import { isoTime, ServiceError } from '@screen-service/registry/kernel';
import type { DeadlineRecord, Repositories } from '@screen-service/registry/model';
import { readPlan } from '@screen-service/screen-rules';

/** What the person reads when a tap comes too late: when it expired and what was chosen instead. */
export function lateTapMessage(d: DeadlineRecord): string {
  const plan = readPlan(d.plan);
  const chosen = plan.defaults.map((x) => String(x.value)).join(', ');
  const when = isoTime(d.dueAt);
  return d.outcome === 'default' || (d.outcome === null && chosen !== '')
    ? `This screen expired at ${when}: ${chosen} was chosen by default, so this tap was not recorded.`
    : `This screen expired at ${when} and takes no more answers, so this tap was not recorded.`;
}

/** What the person reads when a tap reaches a screen its agent took back (ADR 0279). */
export function withdrawnTapMessage(d: DeadlineRecord): string {
  return `This screen was withdrawn by the agent at ${isoTime(d.settledAt ?? d.createdAt)}, so this tap was not recorded.`;
}

/**
 * Inside the tap's transaction: refuses a tap on a screen the agent withdrew (`CONFLICT`, details
 * `{ reason: 'withdrawn', at }`); refuses a tap on a screen whose deadline passed or was decided by default
 * (`CONFLICT`, details `{ reason: 'expired', due, outcome }`), and settles a pending deadline as answered by
 * the first tap that is an answer (a quiet event, such as a timer starting, leaves it pending). A screen
 * offered to a holder (ADR 0280) settles its ask's deadline with it. Returns the screen's deadline row.
 */
export async function checkDeadlineTap(
  tx: Pick<Repositories, 'deadlines'>,
  screenId: string,
  at: number,
  quiet: boolean,
): Promise<DeadlineRecord | null> {
  const d = await tx.deadlines.get(screenId);
  if (!d || d.outcome === 'answered') return d;
  if (d.outcome === 'withdrawn') {
    throw new ServiceError('CONFLICT', withdrawnTapMessage(d), {
      field: 'screen_id',
      details: { reason: 'withdrawn', at: isoTime(d.settledAt ?? d.createdAt) },
    });
  }
  const late = d.outcome !== null || at >= d.dueAt;
  // A pending deadline is settled here; a concurrent sweep that got there first makes this tap late.
  if (!late && (quiet || (await tx.deadlines.settle(screenId, at, 'answered')))) {
    const origin = readPlan(d.plan).offer_of;
    if (!quiet && origin) await tx.deadlines.settle(origin, at, 'answered');
    return d;
  }
  const now = late ? d : ((await tx.deadlines.get(screenId)) ?? d);
  if (now.outcome === 'answered') return now;
  throw new ServiceError('CONFLICT', lateTapMessage(now), {
    field: 'screen_id',
    details: { reason: 'expired', due: isoTime(d.dueAt), outcome: now.outcome },
  });
}
