// A screen's `deadline` argument (issue 40, ADR 0260): checked once when the screen is shown, into the plan
// the sweeper runs. Every adapter passes the same object through; the rule lives here only.

import { ServiceError } from '@screen-service/registry/kernel';
import type { ScreenRecord } from '@screen-service/registry/model';
import type { ScreenLinesPort } from './screen-lines-port.js';
import { computeTap } from './tap-event.js';

/**
 * What an agent may write for an escalation step: buzz again, buzz again marked urgent, or offer the same ask
 * to named holders of the shared agent (ADR 0280; the first answer wins).
 */
export type EscalationAction = 'remind' | 'urgent' | 'offer';

/** Most holders one `offer` step may name. */
export const MAX_OFFER_HOLDERS = 10;

/** The `deadline` argument of `svc_show` (and of the host API, the A2A data part, native agents). */
export interface DeadlineInput {
  /** A duration from now: `90s`, `10m`, `2h`, `1h30m`, `1d`. Give `in` or `at`, not both. */
  in?: string;
  /** A time: ISO 8601 with a zone (`2026-11-28T15:00:00Z`). */
  at?: string;
  /** Tap id to the value it takes when nobody answered; `"none"` or absent: the screen expires. */
  default?: Record<string, unknown> | 'none';
  /**
   * Steps before the deadline: `at` is a share of the time (`50%`) or a duration before the end (`-2m`);
   * `do` is `remind` (buzz again), `urgent` (buzz again, marked urgent for the phone) or `offer` (show the
   * same ask in the threads of the holders `to` names: their user ids, or the host's session keys).
   */
  escalate?: { at: string; do: EscalationAction; to?: string[] }[];
}

/** One step of the plan, at an absolute time. The last step of every plan is the deadline itself. */
export interface DeadlineStep {
  at: number;
  do: EscalationAction | 'deadline';
  /** `offer`: the holders' user ids. */
  to?: string[];
}

/** The checked deadline, stored with the screen's deadline row and in the screen message's `meta.deadline`. */
export interface DeadlinePlan {
  /** ISO time of the deadline (what the phone counts down to). */
  due: string;
  /** Defaults per tap id, in screen order; empty: the screen expires. */
  defaults: { id: string; value: unknown }[];
  steps: DeadlineStep[];
  /** On a screen offered to a holder (ADR 0280): the ask's own screen, whose deadline decides for both. */
  offer_of?: string;
}

/** Shortest and longest deadline an agent may set. */
export const MIN_DEADLINE_MS = 5_000;
export const MAX_DEADLINE_MS = 30 * 24 * 3_600_000;
const MAX_STEPS = 5;
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };
const DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

const refuse = (field: string, message: string): never => {
  throw new ServiceError('INVALID_INPUT', message, { field });
};

/** Milliseconds of `90s`, `10m`, `2h`, `1h30m`, `1d`; undefined when the text is not one. */
export function parseDurationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m || text === '') return undefined;
  const [d, h, min, s] = [m[1], m[2], m[3], m[4]].map((x) => Number(x ?? 0));
  return d! * UNIT_MS.d! + h! * UNIT_MS.h! + min! * UNIT_MS.m! + s! * UNIT_MS.s!;
}

function dueAtOf(input: DeadlineInput, now: number): number {
  if ((input.in === undefined) === (input.at === undefined)) {
    refuse('deadline', 'deadline needs exactly one of "in" (a duration like "10m") or "at" (an ISO time).');
  }
  let due: number;
  if (input.in !== undefined) {
    const ms = typeof input.in === 'string' ? parseDurationMs(input.in) : undefined;
    if (ms === undefined) {
      return refuse('deadline.in', `deadline.in must be a duration like "90s", "10m", "2h" or "1d".`);
    }
    due = now + ms;
  } else {
    const text = input.at;
    const ok = typeof text === 'string' && /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text);
    due = ok ? Date.parse(text) : Number.NaN;
    if (!Number.isFinite(due)) {
      return refuse(
        'deadline.at',
        'deadline.at must be an ISO 8601 time with a zone, e.g. "2026-11-28T15:00:00Z".',
      );
    }
  }
  if (due - now < MIN_DEADLINE_MS || due - now > MAX_DEADLINE_MS) {
    refuse('deadline', 'deadline must fall between 5 seconds and 30 days from now.');
  }
  return due;
}

function stepsOf(input: DeadlineInput, now: number, due: number): DeadlineStep[] {
  const raw = input.escalate ?? [];
  if (!Array.isArray(raw) || raw.length > MAX_STEPS) {
    refuse('deadline.escalate', `deadline.escalate must be a list of at most ${MAX_STEPS} steps.`);
  }
  const steps = raw.map((s, i): DeadlineStep => {
    const field = `deadline.escalate[${i}]`;
    if (typeof s !== 'object' || s === null)
      return refuse(field, `${field} must be {"at": "50%", "do": "remind"}.`);
    if (s.do !== 'remind' && s.do !== 'urgent' && s.do !== 'offer') {
      return refuse(`${field}.do`, `${field}.do must be "remind", "urgent" or "offer".`);
    }
    const to = s.do === 'offer' ? holdersOf(s.to, `${field}.to`) : undefined;
    const text = typeof s.at === 'string' ? s.at : '';
    const share = /^(\d{1,2})%$/.exec(text);
    const before = text.startsWith('-') ? parseDurationMs(text.slice(1)) : undefined;
    const at = share
      ? now + Math.round(((due - now) * Number(share[1])) / 100)
      : before !== undefined
        ? due - before
        : Number.NaN;
    if (!Number.isFinite(at) || at <= now || at >= due) {
      return refuse(
        `${field}.at`,
        `${field}.at must be a share of the time ("50%") or a time before the end ("-2m") that falls before the deadline.`,
      );
    }
    return { at, do: s.do, ...(to ? { to } : {}) };
  });
  return [...steps.sort((a, b) => a.at - b.at), { at: due, do: 'deadline' }];
}

/** An offer's holders: user ids, or session keys `<agent_id>~<user_id>` (the user id is kept). */
function holdersOf(value: unknown, field: string): string[] {
  const list = Array.isArray(value) ? value : [];
  const ids = list.map((v) => (typeof v === 'string' ? (v.split('~')[1] ?? v) : ''));
  if (
    list.length === 0 ||
    list.length > MAX_OFFER_HOLDERS ||
    ids.some((id) => !/^usr_[A-Za-z0-9_-]{1,60}$/.test(id))
  ) {
    return refuse(
      field,
      `${field} must list 1 to ${MAX_OFFER_HOLDERS} holders of this shared agent: their user ids (usr_...) or session keys (<agent_id>~<user_id>).`,
    );
  }
  return [...new Set(ids)];
}

function defaultsOf(input: DeadlineInput, screen: ScreenRecord, screenLines: ScreenLinesPort) {
  const given = input.default;
  if (given === undefined || given === 'none') return [];
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return refuse(
      'deadline.default',
      'deadline.default must be "none" or an object of tap id to value, e.g. {"lunch": "Soup"}.',
    );
  }
  const out: { id: string; value: unknown }[] = [];
  for (const tap of screen.taps) {
    if (!Object.hasOwn(given, tap.id)) continue;
    const value = given[tap.id];
    try {
      // The same check a person's tap gets: a default the screen could not take is refused now, not at the end.
      const t = computeTap(screen, { id: tap.id, value }, screenLines);
      if (t.quiet)
        refuse(
          `deadline.default.${tap.id}`,
          `deadline.default.${tap.id} is not an answer (it is a quiet event).`,
        );
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      refuse(`deadline.default.${tap.id}`, `deadline.default.${tap.id}: ${error.message}`);
    }
    out.push({ id: tap.id, value });
  }
  const unknown = Object.keys(given).filter((id) => !screen.taps.some((t) => t.id === id));
  if (unknown.length > 0) {
    refuse(
      'deadline.default',
      `deadline.default names ${unknown.join(', ')}, not on this screen; its tap ids are: ${screen.taps.map((t) => t.id).join(', ') || 'none'}.`,
    );
  }
  return out;
}

/**
 * Checks `input` against the screen about to be shown and returns its plan.
 *
 * @throws {ServiceError} `INVALID_INPUT` naming the field: no or two times, a time outside 5 s to 30 days,
 * a step after the deadline, a default the component would refuse, a tap id not on the screen.
 *
 * @example
 * ```ts
 * planDeadline({ in: '10m', default: { lunch: 'Soup' }, escalate: [{ at: '50%', do: 'remind' }] }, screen, now, lines);
 * ```
 */
export function planDeadline(
  input: unknown,
  screen: ScreenRecord,
  now: number,
  screenLines: ScreenLinesPort,
): DeadlinePlan {
  if (typeof input === 'string') return planDeadline({ in: input }, screen, now, screenLines);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return refuse(
      'deadline',
      'deadline must be a duration like "10m" or an object {"in": "10m", "default": {...}}.',
    );
  }
  const d = input as DeadlineInput;
  const due = dueAtOf(d, now);
  return {
    due: new Date(due).toISOString(),
    defaults: defaultsOf(d, screen, screenLines),
    steps: stepsOf(d, now, due),
  };
}

/** A stored plan read back (the deadline row's `plan`). */
export function readPlan(plan: Record<string, unknown>): DeadlinePlan {
  return plan as unknown as DeadlinePlan;
}
