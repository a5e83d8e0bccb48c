// Waiting for one tap: the caller's signal, the deadline and its default, and withdrawing the screen when it ends.
import type { AnswerPump } from './answer-pump.js';
import { AbortedError, DeadlinePassedError, ServiceRefusedError, UnexpectedAnswerError } from './errors.js';
import type { ToolTransport } from './mcp-transport.js';
import type { Answer, Deadline } from './types.js';

/** How long past a deadline the client waits for the service's own decision before deciding locally. */
export const DEADLINE_GRACE_MS = 2_000;

export interface WaitTapOptions<A> {
  pump: AnswerPump;
  transport: ToolTransport;
  screenId: string;
  tapId: string;
  /** The agent the screen went to (for the withdraw line). */
  agent: string | undefined;
  decode: (a: Answer) => A;
  signal?: AbortSignal | undefined;
  deadline?: Deadline<A> | undefined;
  /** What the person reads when the screen is withdrawn; false: nothing. */
  withdrawText: string | false;
}

/** The deadline as an ISO time, for svc_show's `deadline` argument and the local timer. */
export function deadlineTime(deadline: Deadline<unknown>, now = Date.now()): Date {
  const at = 'in' in deadline ? new Date(now + deadline.in * 1000) : new Date(deadline.at);
  if (Number.isNaN(at.getTime())) throw new RangeError('deadline.at is not a valid time');
  return at;
}

/**
 * Resolves with the decoded tap on `tapId` of `screenId`. An abort or a passed deadline withdraws the screen
 * (its later taps are dropped, the person reads `withdrawText`) and rejects (or resolves with the default).
 */
export async function waitForTap<A>(o: WaitTapOptions<A>): Promise<A> {
  const stop = new AbortController();
  const onAbort = () =>
    stop.abort(new AbortedError('The wait was aborted; the screen was withdrawn.', o.signal?.reason));
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (o.deadline) {
    const left = deadlineTime(o.deadline).getTime() + DEADLINE_GRACE_MS - Date.now();
    timer = setTimeout(
      () =>
        stop.abort(new DeadlinePassedError('The deadline passed with no answer; the screen was withdrawn.')),
      Math.max(0, left),
    );
  }
  try {
    const answer = await o.pump.wait(
      (a) => a.kind === 'tap' && a.screen_id === o.screenId && a.event?.id === o.tapId,
      o.screenId,
      stop.signal,
    );
    return o.decode(answer);
  } catch (err) {
    if (!stop.signal.aborted || err !== stop.signal.reason) throw err;
    await withdraw(o);
    if (err instanceof DeadlinePassedError && o.deadline && 'default' in o.deadline)
      return o.deadline.default as A;
    throw err;
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Withdraws the screen: the client drops its later taps and the service takes it back (`svc_withdraw`, ADR
 * 0279: the phone shows it withdrawn and takes no more taps). A screen the service already decided (its
 * deadline landed) needs nothing more. Only when the service cannot withdraw (an older one, without the
 * call) does the person read `withdrawText` in one chat line instead.
 */
async function withdraw(
  o: Pick<WaitTapOptions<unknown>, 'pump' | 'transport' | 'screenId' | 'agent' | 'withdrawText'>,
) {
  o.pump.withdraw(o.screenId);
  try {
    await o.transport.call('svc_withdraw', { screen_id: o.screenId });
    return;
  } catch (err) {
    if (err instanceof ServiceRefusedError && err.code === 'conflict') return;
  }
  if (o.withdrawText === false) return;
  try {
    await o.transport.call('svc_say', { text: o.withdrawText, ...(o.agent ? { agent: o.agent } : {}) });
  } catch {
    // Best effort: the wait has ended either way, and its taps are dropped.
  }
}

/** Checks a decoded value; a mismatch means the service broke its promise (never the person's doing). */
export function expectValue<T>(ok: boolean, value: T, what: string): T {
  if (!ok) throw new UnexpectedAnswerError(`Expected ${what}, got ${JSON.stringify(value)}.`);
  return value;
}
