// A screen's deadline (issue 40, ADR 0260): the row the sweeper claims when it is due, its reader, its repository.
import { num, type Row } from './rows.js';

/**
 * How a screen's deadline ended: a person answered first, the defaults landed, the screen expired without
 * one, or the agent withdrew the screen (ADR 0279; a screen without a deadline then gets a settled row).
 */
export type DeadlineOutcome = 'answered' | 'default' | 'expired' | 'withdrawn';

/** One screen's deadline. `plan` is what the rules checked at show time (defaults and escalation steps). */
export interface DeadlineRecord {
  screenId: string;
  userId: string;
  agentId: string;
  /** When the screen decides by its defaults (or expires). */
  dueAt: number;
  /** When the next step is due: an escalation step before `dueAt`, or `dueAt` itself. */
  nextAt: number;
  /** How many steps of the ladder already ran (the deadline itself is the last step). */
  step: number;
  /** The checked deadline: defaults per component and the escalation ladder (JSON the rules read back). */
  plan: Record<string, unknown>;
  createdAt: number;
  settledAt: number | null;
  outcome: DeadlineOutcome | null;
}

/** A screen an escalation showed in a holder's thread (ADR 0280), and the ask's own screen. */
export interface OfferRecord {
  screenId: string;
  originId: string;
  /** The holder whose thread shows it. */
  userId: string;
  agentId: string;
  createdAt: number;
}

/**
 * What an answer to a screen would meet, read in one statement (ADR 0290): the state of the screen's deadline
 * (`none` without a row, `pending` while unsettled, else how it ended) and whether a notification of the
 * screen still holds an open notice. The rules decide from it how the answer is written.
 */
export interface AnswerStakes {
  deadline: 'none' | 'pending' | DeadlineOutcome;
  openNotice: boolean;
}

/** A deadline as the rules create it, with its screen. */
export type NewDeadline = Omit<DeadlineRecord, 'step' | 'settledAt' | 'outcome'>;

/**
 * Deadlines of screens. Rows go with their screen (and so with the thread). Every change is conditional,
 * so two instances sweeping at once never run the same step twice: whoever changes the row runs the step.
 */
export interface DeadlineRepository {
  /** Writes a screen's deadline; call it in the screen's own transaction. */
  create(deadline: NewDeadline): Promise<void>;
  get(screenId: string): Promise<DeadlineRecord | null>;
  /** The screen's deadline state and whether it has an open notification notice, in one read. */
  stakes(screenId: string): Promise<AnswerStakes>;
  /** Unsettled deadlines whose next step is due at `at`, earliest first. */
  due(at: number, limit: number): Promise<DeadlineRecord[]>;
  /** The earliest `nextAt` of an unsettled deadline, or null when none waits. */
  nextDueAt(): Promise<number | null>;
  /** Moves an unsettled deadline from step `from` to `from + 1`, next due at `nextAt`; false when another did. */
  advance(screenId: string, from: number, nextAt: number): Promise<boolean>;
  /** Settles an unsettled deadline with `outcome` at `at`; false when it was settled already. */
  settle(screenId: string, at: number, outcome: DeadlineOutcome): Promise<boolean>;
  /**
   * Marks the screen withdrawn at `at` (ADR 0279): settles its pending or answered deadline, or writes a
   * settled row for a screen without one. False when it was withdrawn, defaulted or expired already.
   */
  withdraw(input: { screenId: string; userId: string; agentId: string; at: number }): Promise<boolean>;
  /** Records a screen offered to a holder; call it in the offered screen's own transaction. */
  addOffer(offer: OfferRecord): Promise<void>;
  /** The screens the ask `originId` was offered as, oldest first. */
  offersOf(originId: string): Promise<OfferRecord[]>;
}

/** A `screen_offers` row of either SQL store. */
export function toOffer(r: Row): OfferRecord {
  return {
    screenId: r.screen_id as string,
    originId: r.origin_id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    createdAt: Number(r.created_at),
  };
}

/** A `screen_deadlines` row of either SQL store. */
export function toDeadline(r: Row): DeadlineRecord {
  return {
    screenId: r.screen_id as string,
    userId: r.user_id as string,
    agentId: r.agent_id as string,
    dueAt: Number(r.due_at),
    nextAt: Number(r.next_at),
    step: Number(r.step),
    plan: (typeof r.plan === 'string' ? JSON.parse(r.plan) : r.plan) as Record<string, unknown>,
    createdAt: Number(r.created_at),
    settledAt: num(r.settled_at),
    outcome: (r.outcome as DeadlineOutcome | null) ?? null,
  };
}
