// How a load driver hands its one result to the parent: sent once, flushed before the driver exits, and
// received once (a driver that exits, or stays silent past a deadline, without a result fails the run).

/** A process.send-like function: `done` is called once the message was handed to the channel. */
export type SendFn<M> = (message: M, done: (err: Error | null) => void) => void;

export interface OnceSender<M> {
  /**
   * Sends `message` unless a message was already sent; resolves `true` once this message was handed to the
   * channel (the driver may exit then), `false` when an earlier call sent one (this one is dropped).
   */
  send(message: M): Promise<boolean>;
  sent(): boolean;
}

/**
 * Wraps `send` so that only the first call sends. A driver finishes either when its last call returns or when
 * its grace period after the deadline lapses with calls still in flight; both paths call `send`, and the
 * parent must see exactly one result.
 *
 * @example
 * ```ts
 * const result = createOnceSender<DriverMessage>((m, done) => process.send?.(m, undefined, {}, done));
 * if (await result.send({ type: 'result', result })) process.exit(0);
 * ```
 */
export function createOnceSender<M>(send: SendFn<M>): OnceSender<M> {
  let sent = false;
  return {
    send(message) {
      if (sent) return Promise.resolve(false);
      sent = true;
      return new Promise((resolve, reject) => send(message, (err) => (err ? reject(err) : resolve(true))));
    },
    sent: () => sent,
  };
}

/** The parent's view of a driver process (a ChildProcess fits). */
export interface ChildLike {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  /** After the process ended and its IPC channel closed (every message it sent came first). */
  on(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export interface ReceiveOptions<R> {
  /** Picks the result out of a message; `undefined` for other messages. */
  pick(message: unknown): R | undefined;
  /** Fails when no result came within this long (from the call); default: no deadline. */
  timeoutMs?: number;
  /** Names the driver in errors (`driver 2`). */
  name: string;
  /** Called for each result after the first (a protocol error the parent reports; the first one counts). */
  onDuplicate?: () => void;
  setTimer?: (fn: () => void, ms: number) => { unref?: () => void } | number;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Resolves with the first result `child` sends; rejects when the child exits without one (whatever its exit
 * code) or the deadline passes. Listens from the call on, so call it before the child can finish. The
 * returned promise is marked handled: a driver failing during set-up does not crash the parent before it
 * awaits the result.
 *
 * @example
 * ```ts
 * const result = receiveResult(child, { pick: (m) => (m as DriverMessage).type === 'result' ? m.result : undefined, timeoutMs: 300_000, name: 'driver 1' });
 * ```
 */
export function receiveResult<R>(child: ChildLike, options: ReceiveOptions<R>): Promise<R> {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((t) => clearTimeout(t as NodeJS.Timeout));
  let got = false;
  const p = new Promise<R>((resolve, reject) => {
    const ms = options.timeoutMs;
    const timer =
      ms === undefined
        ? undefined
        : setTimer(() => {
            if (!got) reject(new Error(`${options.name} sent no result within ${ms} ms`));
          }, ms);
    child.on('message', (m) => {
      const r = options.pick(m);
      if (r === undefined) return;
      if (got) {
        options.onDuplicate?.();
        return;
      }
      got = true;
      clearTimer(timer);
      resolve(r);
    });
    // 'close' comes after the IPC channel ended, so every message was read; 'exit' carries no such promise.
    child.on('close', (code, signal) => {
      clearTimer(timer);
      if (!got)
        reject(new Error(`${options.name} exited (${signal ?? `code ${code}`}) without sending its result`));
    });
  });
  p.catch(() => {});
  return p;
}
