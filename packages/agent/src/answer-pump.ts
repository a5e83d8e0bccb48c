// One long-poll loop per agent: svc_answers again and again while anyone waits, each answer handed to one waiter.
import { AuthError, ConnectionError, RateLimitedError, ServiceRefusedError } from './errors.js';
import type { ToolTransport } from './mcp-transport.js';
import type { Answer } from './types.js';

/** The longest `wait` svc_answers takes (seconds). */
export const LONG_POLL_SECONDS = 25;

/** How long after its last poll the pump acknowledges a batch by a call of its own (ms). */
export const IDLE_ACK_MS = 2_000;

interface Waiter {
  screenId: string | undefined;
  match: (a: Answer) => boolean;
  resolve: (a: Answer) => void;
  reject: (e: unknown) => void;
}

export interface PumpOptions {
  transport: ToolTransport;
  agent: string | undefined;
  /** Seconds one svc_answers call holds; default {@link LONG_POLL_SECONDS}. */
  pollSeconds?: number;
  /** Back-off after a failed poll: first and longest pause, ms. */
  retryMs?: { first: number; max: number };
  /** Answers nobody waits for are kept (oldest dropped past this many). */
  keep?: number;
}

/**
 * Hands every answer the service returns to exactly one waiter: svc_answers returns each answer once, so the
 * answers of screens nobody waits for yet are kept here (`next` and later waits find them) instead of lost.
 * Answer ids already handed out are remembered, so an answer the service repeats is never handed out twice.
 */
export class AnswerPump {
  private readonly waiters = new Set<Waiter>();
  private readonly kept: Answer[] = [];
  private readonly seen = new Set<string>();
  private readonly withdrawn = new Set<string>();
  private poll: AbortController | undefined;
  private running = false;
  /**
   * The resumable wait (ADR 0274): the cursor of the last result. Its answers are handed out at once (ids
   * already seen are never handed out again) and acknowledged by the next poll; when no poll follows within
   * {@link IDLE_ACK_MS}, by one call of its own, so a quick run of asks costs no extra call per answer.
   */
  private cursor = '';
  private idleAck: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly o: PumpOptions) {}

  /** Resolves with the first answer `match` takes; kept answers are offered first. */
  wait(match: (a: Answer) => boolean, screenId: string | undefined, signal?: AbortSignal): Promise<Answer> {
    const i = this.kept.findIndex(match);
    if (i >= 0) return Promise.resolve(this.kept.splice(i, 1)[0] as Answer);
    return new Promise<Answer>((resolve, reject) => {
      const waiter: Waiter = {
        screenId,
        match,
        resolve: (a) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(a);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      const onAbort = () => {
        this.waiters.delete(waiter);
        // Nobody left: close the poll's request, so the service stops waiting and claims nothing more.
        if (this.waiters.size === 0) this.poll?.abort();
        waiter.reject(signal?.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      if (!this.running) void this.run();
    });
  }

  /** Later answers to this screen are dropped (it was withdrawn); kept ones too. */
  withdraw(screenId: string): void {
    this.withdrawn.add(screenId);
    for (let i = this.kept.length - 1; i >= 0; i--)
      if (this.kept[i]?.screen_id === screenId) this.kept.splice(i, 1);
  }

  /** Stops: every waiter gets `err`. */
  stop(err: unknown): void {
    if (this.idleAck) clearTimeout(this.idleAck);
    this.poll?.abort();
    for (const w of [...this.waiters]) w.reject(err);
    this.waiters.clear();
  }

  private async run(): Promise<void> {
    this.running = true;
    if (this.idleAck) clearTimeout(this.idleAck);
    const retry = this.o.retryMs ?? { first: 250, max: 5_000 };
    let pause = retry.first;
    try {
      while (this.waiters.size > 0) {
        const poll = new AbortController();
        this.poll = poll;
        try {
          const args: Record<string, unknown> = { wait: this.o.pollSeconds ?? LONG_POLL_SECONDS };
          const screen = this.pollScreen();
          if (screen) args.screen_id = screen;
          if (this.o.agent) args.agent = this.o.agent;
          const r = await this.o.transport.call('svc_answers', this.withCursor(args), poll.signal);
          pause = retry.first;
          this.deliver(this.acknowledged(r));
        } catch (err) {
          if (poll.signal.aborted) continue;
          if (!retryable(err)) {
            this.stop(err);
            return;
          }
          const after = err instanceof RateLimitedError ? (err.retryAfterSeconds ?? 0) * 1000 : 0;
          await sleep(Math.max(after, pause), poll.signal);
          pause = Math.min(pause * 2, retry.max);
        }
      }
    } finally {
      this.running = false;
      this.poll = undefined;
      if (this.cursor !== '') this.scheduleIdleAck();
    }
  }

  /** Acknowledges the last batch when no poll came to do it; best effort (a failure leaves it to the next). */
  private scheduleIdleAck(): void {
    if (this.idleAck) clearTimeout(this.idleAck);
    this.idleAck = setTimeout(() => {
      this.idleAck = undefined;
      this.acknowledge().catch(() => {});
    }, IDLE_ACK_MS);
    // A script that ends right after its last answer is not held open: the service returns that batch
    // again to its next run, whose ids are new to it (ADR 0274). `close()` acknowledges first.
    (this.idleAck as { unref?: () => void }).unref?.();
  }

  /**
   * Acknowledges the batch the last poll returned, now (a `wait: 0` call with the cursor), unless a poll is
   * running (it carries the cursor). Reads that count unread answers (`threads`) and `close` call it first.
   */
  async acknowledge(): Promise<void> {
    if (this.idleAck) clearTimeout(this.idleAck);
    this.idleAck = undefined;
    if (this.running || this.cursor === '') return;
    const args: Record<string, unknown> = { wait: 0, cursor: this.cursor };
    if (this.o.agent) args.agent = this.o.agent;
    const r = await this.o.transport.call('svc_answers', args);
    if (this.running) return;
    this.deliver(this.acknowledged(r));
  }

  /** The call's arguments with the cursor: the poll acknowledges the batch the last one returned. */
  private withCursor(args: Record<string, unknown>): Record<string, unknown> {
    return { ...args, cursor: this.cursor };
  }

  /**
   * A call's answers, and its cursor kept for the next call. A result lost on a dropped connection is
   * returned again by the next call (it still holds the older cursor), and an answer received twice is
   * handed out once (`deliver` skips ids already seen).
   */
  private acknowledged(r: Record<string, unknown>): Answer[] {
    if (typeof r.cursor === 'string') this.cursor = r.cursor;
    return Array.isArray(r.answers) ? (r.answers as Answer[]) : [];
  }

  /** One screen's id narrows the poll to answers after it; waits on several screens (or none) read the thread. */
  private pollScreen(): string | undefined {
    const screens = new Set<string | undefined>([...this.waiters].map((w) => w.screenId));
    return screens.size === 1 ? [...screens][0] : undefined;
  }

  private deliver(answers: Answer[]): void {
    for (const a of answers) {
      if (this.seen.has(a.id)) continue;
      this.seen.add(a.id);
      if (a.screen_id !== null && this.withdrawn.has(a.screen_id)) continue;
      const w = [...this.waiters].find((x) => x.match(a));
      if (w) {
        this.waiters.delete(w);
        w.resolve(a);
      } else {
        this.kept.push(a);
        if (this.kept.length > (this.o.keep ?? 1000)) this.kept.shift();
      }
    }
    if (this.seen.size > 10_000) for (const id of [...this.seen].slice(0, 5_000)) this.seen.delete(id);
  }
}

/** Worth trying again: the service was unreachable, overloaded or restarting. A refusal is not. */
function retryable(err: unknown): boolean {
  if (err instanceof RateLimitedError || err instanceof ConnectionError) return true;
  if (err instanceof AuthError) return false;
  if (err instanceof ServiceRefusedError)
    return ['internal_error', 'storage_full', 'storage_unavailable'].includes(err.code);
  return true;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
