// One statement at a time per key; the calls that come meanwhile go out together when it returns (ADR 0296).
// Nothing waits for a batch to fill: a call on an idle key waits one turn of the event loop (the calls of that
// turn go with it), and the others only what they would queue behind a statement of their key anyway.

/** One call's outcome inside a batch: its value, or its own error. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** `f`'s value or error, as an outcome. */
export async function settle<R>(f: () => Promise<R>): Promise<Outcome<R>> {
  try {
    return { ok: true, value: await f() };
  } catch (error) {
    return { ok: false, error };
  }
}

export interface WhileBusyOptions<T, R> {
  /** One call of `key` alone (a batch of one). */
  one(item: T, key: string): Promise<R>;
  /** Several calls of `key` in one statement: an outcome for each, in their order. */
  many(items: T[], key: string): Promise<Outcome<R>[]>;
  /** At most this many calls in one batch (more go in the next). */
  max: number;
}

/**
 * A function that queues each call by key and sends a key's queue, one statement at a time: the calls that
 * came while its last statement was on its way (and in one turn after) go as one `many`, or as `one` when
 * alone. Every call settles: a `many` that throws rejects each of its calls with that error.
 */
export function whileBusy<T, R>(options: WhileBusyOptions<T, R>): (key: string, item: T) => Promise<R> {
  const busy = new Set<string>();
  type Waiting = { item: T; resolve(r: R): void; reject(e: unknown): void };
  const waiting = new Map<string, Waiting[]>();

  async function drain(key: string): Promise<void> {
    try {
      // Each time, one turn of the event loop first: calls of the same turn go together, and so do the callers
      // the last statement answered that ask again at once (instead of one of them in a statement of its own).
      for (let queue = await nextTurn(key); queue && queue.length > 0; queue = await nextTurn(key)) {
        const batch = queue.splice(0, options.max);
        if (queue.length === 0) waiting.delete(key);
        if (batch.length === 1) {
          const b = batch[0]!;
          await options.one(b.item, key).then(b.resolve, b.reject);
          continue;
        }
        try {
          const outcomes = await options.many(
            batch.map((b) => b.item),
            key,
          );
          batch.forEach((b, i) => {
            const o = outcomes[i];
            if (o?.ok) b.resolve(o.value);
            else b.reject(o ? o.error : new Error('the batch gave no outcome for this call'));
          });
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      busy.delete(key);
    }
  }

  const nextTurn = (key: string) =>
    new Promise<Waiting[] | undefined>((resolve) => setImmediate(() => resolve(waiting.get(key))));

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      const entry = { item, resolve, reject };
      const queue = waiting.get(key);
      if (queue) queue.push(entry);
      else waiting.set(key, [entry]);
      if (busy.has(key)) return;
      busy.add(key);
      void drain(key);
    });
}
