// Reads asked for in the same turn, answered by one statement: svc_threads counts every agent's unhandled
// rows at once (one call per agent), and callers resuming together ask together (issue 42).
import type { ThreadKey } from '@screen-service/registry/model';
import type { Queryable } from './pg-db.js';

type Waiter = { key: ThreadKey; resolve(n: number): void; reject(err: unknown): void };

/**
 * `countUnhandled` whose calls of one microtask turn share a statement: the first call schedules the read
 * for the end of the current turn, later calls join it, and each gets its own thread's count. One call
 * alone runs the plain count.
 */
export function batchedUnhandledCounts(q: Queryable): (key: ThreadKey) => Promise<number> {
  let waiting: Waiter[] | null = null;
  async function run(batch: Waiter[]) {
    try {
      const counts = await countMany(
        q,
        batch.map((w) => w.key),
      );
      batch.forEach((w, i) => {
        w.resolve(counts[i] ?? 0);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
  return (key) =>
    new Promise<number>((resolve, reject) => {
      if (waiting === null) {
        const batch: Waiter[] = [];
        waiting = batch;
        queueMicrotask(() => {
          waiting = null;
          void run(batch);
        });
      }
      waiting.push({ key, resolve, reject });
    });
}

/** Unhandled person rows of each thread of `keys`, in their order, in one statement. */
async function countMany(q: Queryable, keys: ThreadKey[]): Promise<number[]> {
  if (keys.length === 1) {
    const r = await q.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM messages
       WHERE agent_id = $1 AND user_id = $2 AND sender = 'person' AND handled_at IS NULL`,
      [keys[0]!.agentId, keys[0]!.userId],
    );
    return [Number(r.rows[0]?.n ?? 0)];
  }
  const r = await q.query<{ i: number; n: number }>(
    `SELECT k.i, (SELECT COUNT(*) FROM messages m
       WHERE m.agent_id = k.a AND m.user_id = k.u AND m.sender = 'person' AND m.handled_at IS NULL) AS n
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(a, u, i)`,
    [keys.map((k) => k.agentId), keys.map((k) => k.userId)],
  );
  const out = new Array<number>(keys.length).fill(0);
  for (const row of r.rows) out[Number(row.i) - 1] = Number(row.n);
  return out;
}
