// SQLite push subscriptions, outbox and presence. The rules queue a message's buzz in the message's own
// transaction (enqueueMessage); whether it buzzes is theirs to decide (ADR 0241).

import type { PushRepository } from '@screen-service/registry/model';
import { toPushDelivery, toPushSubscription } from '@screen-service/registry/model';
import { groupCommitOf, type WriteRunner } from './group-commit.js';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/** The statements that write a buzz: a message's intent and outbox rows, or a revoked grant's rows. */
function preparePushRows(db: SqliteDb) {
  const intent = db.prepare(
    `INSERT INTO push_intents (id, user_id, agent_id, message_id, created_at, sent_at)
     VALUES (?, ?, ?, ?, ?, NULL)`,
  );
  // Row n of the person's subscriptions in id order, counted with an indexed subquery: ROW_NUMBER() OVER
  // (ORDER BY id) opened a sorter on every write, 60-90 µs against 25 µs (ADR 0205), devices being few.
  // Positional (binding an object by name costs more on every agent write): see fanOutRun for the order.
  const fanOut = db.prepare(
    `INSERT INTO push_outbox (id, user_id, agent_id, subscription_id, kind, message_id, created_at, next_at)
     SELECT ? || '.' || (SELECT COUNT(*) FROM push_subscriptions o WHERE o.user_id = ? AND o.id <= s.id),
       user_id, ?, id, ?, ?, ?, ?
     FROM push_subscriptions s WHERE user_id = ?`,
  );
  const fanOutRun = (
    id: string,
    userId: string,
    agentId: string,
    kind: string,
    messageId: string | null,
    at: number,
  ) => fanOut.run(id, userId, agentId, kind, messageId, at, at, userId).changes;
  return {
    /** Writes the buzz of a message: its intent and one outbox row per subscription (how many). */
    message(p: { id: string; userId: string; agentId: string; messageId: string; at: number }): number {
      intent.run(p.id, p.userId, p.agentId, p.messageId, p.at);
      return fanOutRun(p.id, p.userId, p.agentId, 'message', p.messageId, p.at);
    },
    revoked(input: { id: string; userId: string; agentId: string; at: number }): number {
      return fanOutRun(input.id, input.userId, input.agentId, 'revoked', null, input.at);
    },
  };
}

export function createSqlitePush(db: SqliteDb, commits: WriteRunner = groupCommitOf(db)): PushRepository {
  const rows = preparePushRows(db);
  // The sender settles each push as its answer comes: those writes share the turn's commit (ADR 0205).
  const save = db.prepare(
    `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, device, created_at)
     VALUES (@id, @userId, @endpoint, @p256dh, @auth, @device, @createdAt)
     ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, device = excluded.device
       WHERE push_subscriptions.user_id = excluded.user_id
     RETURNING *`,
  );
  const list = db.prepare('SELECT * FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id');
  const remove = db.prepare('DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?');
  const removeById = db.prepare('DELETE FROM push_subscriptions WHERE id = ?');
  const due = db.prepare(
    `SELECT o.*, s.id AS s_id, s.user_id AS s_user_id, s.endpoint AS s_endpoint, s.p256dh AS s_p256dh,
       s.auth AS s_auth, s.device AS s_device, s.created_at AS s_created_at
     FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
     WHERE o.next_at <= ? ORDER BY o.next_at, o.created_at, o.id LIMIT ?`,
  );
  const nextDue = db.prepare('SELECT MIN(next_at) AS t FROM push_outbox');
  const settle = db.prepare('DELETE FROM push_outbox WHERE id IN (SELECT value FROM json_each(?))');
  const postpone = db.prepare(
    `UPDATE push_outbox SET next_at = ?, attempts = attempts + ? WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const intentsSent = db.prepare(
    'UPDATE push_intents SET sent_at = ? WHERE sent_at IS NULL AND message_id IN (SELECT value FROM json_each(?))',
  );
  const open = db.prepare(
    `INSERT INTO thread_presence (agent_id, user_id, device, until) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, user_id, device) DO UPDATE SET until = excluded.until`,
  );
  const close = db.prepare('DELETE FROM thread_presence WHERE agent_id = ? AND user_id = ? AND device = ?');
  const isOpen = db.prepare(
    'SELECT 1 AS x FROM thread_presence WHERE agent_id = ? AND user_id = ? AND until > ? LIMIT 1',
  );

  return {
    async saveSubscription(sub) {
      const r = save.get(sub) as Row | undefined;
      return r ? toPushSubscription(r) : null;
    },
    async listSubscriptions(userId) {
      return (list.all(userId) as Row[]).map((r) => toPushSubscription(r));
    },
    async removeSubscription(userId, endpoint) {
      return remove.run(userId, endpoint).changes > 0;
    },
    async removeSubscriptionById(id) {
      await commits.run(() => removeById.run(id));
    },
    async enqueueRevoked(input) {
      return rows.revoked(input);
    },
    async enqueueMessage(input) {
      // Two statements: through the writes' runner (the group commit, or the body's transaction), as one.
      return commits.run(() => rows.message(input));
    },
    async due(at, limit) {
      return (due.all(at, limit) as Row[]).map((r) => ({
        row: toPushDelivery(r),
        subscription: toPushSubscription(r, 's_'),
      }));
    },
    async nextDueAt() {
      return ((nextDue.get() as { t: number | null }).t ?? null) as number | null;
    },
    async settle(ids) {
      if (ids.length > 0) await commits.run(() => settle.run(JSON.stringify(ids)));
    },
    async postpone(ids, nextAt, attempt) {
      if (ids.length > 0) await commits.run(() => postpone.run(nextAt, attempt ? 1 : 0, JSON.stringify(ids)));
    },
    async markIntentsSent(messageIds, at) {
      if (messageIds.length > 0) await commits.run(() => intentsSent.run(at, JSON.stringify(messageIds)));
    },
    async setPresence(k, device, until) {
      if (until === null) close.run(k.agentId, k.userId, device);
      else open.run(k.agentId, k.userId, device, until);
    },
    async isOpen(k, at) {
      return isOpen.get(k.agentId, k.userId, at) !== undefined;
    },
  };
}
