// SQLite push subscriptions, outbox and presence. The rules queue a message's buzz in the message's own
// transaction (enqueueMessage); whether it buzzes is theirs to decide (ADR 0241).

import type { PushRepository } from '@screen-service/registry/model';
import {
  toPushDelivery,
  toPushNotice,
  toPushSettings,
  toPushSubscription,
} from '@screen-service/registry/model';
import { groupCommitOf, type WriteRunner } from './group-commit.js';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/** The statements that write a buzz: a message's intent and outbox rows, or a revoked grant's rows. */
export function preparePushRows(db: SqliteDb) {
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

/** The statements of the notifications devices were sent (issue 39): answer tokens and stale ones. */
function prepareNotices(db: SqliteDb) {
  const insert = db.prepare(
    `INSERT INTO push_notices (id, user_id, agent_id, subscription_id, message_id, screen_id, token_hash, tap_id,
       choices, created_at, expires_at, used_at, closed_at)
     VALUES (@id, @userId, @agentId, @subscriptionId, @messageId, @screenId, @tokenHash, @tapId, @choices,
       @createdAt, @expiresAt, @usedAt, @closedAt)`,
  );
  const prune = db.prepare(
    'DELETE FROM push_notices WHERE subscription_id = ? AND agent_id = ? AND expires_at <= ?',
  );
  const find = db.prepare('SELECT * FROM push_notices WHERE token_hash = ?');
  const use = db.prepare(
    `UPDATE push_notices SET used_at = ?, closed_at = ?
     WHERE id = ? AND used_at IS NULL AND closed_at IS NULL AND expires_at > ?`,
  );
  // The open notices of a screen that are still their device's newest for the thread (what it shows).
  const shown = db.prepare(
    `SELECT * FROM push_notices n WHERE n.screen_id = ? AND n.closed_at IS NULL AND NOT EXISTS (
       SELECT 1 FROM push_notices m WHERE m.subscription_id = n.subscription_id AND m.agent_id = n.agent_id
         AND (m.created_at > n.created_at OR (m.created_at = n.created_at AND m.id > n.id)))
     ORDER BY n.id`,
  );
  const close = db.prepare('UPDATE push_notices SET closed_at = ? WHERE screen_id = ? AND closed_at IS NULL');
  const stale = db.prepare(
    `INSERT INTO push_outbox (id, user_id, agent_id, subscription_id, kind, message_id, created_at, next_at)
     SELECT ? || '.' || (j.key + 1), s.user_id, ?, s.id, 'stale', ?, ?, ?
     FROM json_each(?) j JOIN push_subscriptions s ON s.id = j.value AND s.user_id = ?`,
  );
  return { insert, prune, find, use, shown, close, stale };
}

/** The person's attention settings and presence (issue 39, ADR 0258). */
function prepareAttention(db: SqliteDb) {
  return {
    get: db.prepare('SELECT * FROM push_settings WHERE user_id = ?'),
    save: db.prepare(
      `INSERT INTO push_settings (user_id, quiet_start, quiet_end, allow_urgent, plain_per_hour, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
         allow_urgent = excluded.allow_urgent, plain_per_hour = excluded.plain_per_hour, updated_at = excluded.updated_at`,
    ),
    active: db.prepare(
      `INSERT INTO person_presence (user_id, device, until) VALUES (?, ?, ?)
       ON CONFLICT (user_id, device) DO UPDATE SET until = excluded.until`,
    ),
    away: db.prepare('DELETE FROM person_presence WHERE user_id = ? AND device = ?'),
    isActive: db.prepare(
      `SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM person_presence WHERE user_id = ? AND until > ?)
         OR EXISTS (SELECT 1 FROM thread_presence WHERE user_id = ? AND until > ?)`,
    ),
  };
}

export function createSqlitePush(db: SqliteDb, commits: WriteRunner = groupCommitOf(db)): PushRepository {
  const rows = preparePushRows(db);
  const notices = prepareNotices(db);
  const attention = prepareAttention(db);
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
    async saveNotice(n) {
      await commits.run(() => {
        notices.prune.run(n.subscriptionId, n.agentId, n.createdAt);
        notices.insert.run({ ...n, choices: JSON.stringify(n.choices) });
      });
    },
    async findNotice(tokenHash) {
      const r = notices.find.get(tokenHash) as Row | undefined;
      return r ? toPushNotice(r) : null;
    },
    async useNotice(id, at) {
      return commits.run(() => notices.use.run(at, at, id, at).changes > 0);
    },
    async closeNotices(screenId, at) {
      return commits.run(() => {
        const open = (notices.shown.all(screenId) as Row[]).map((r) => ({
          ...toPushNotice(r),
          closedAt: at,
        }));
        notices.close.run(at, screenId);
        return open;
      });
    },
    async getSettings(userId) {
      const r = attention.get.get(userId) as Row | undefined;
      return r ? toPushSettings(r) : null;
    },
    async saveSettings(x) {
      await commits.run(() =>
        attention.save.run(
          x.userId,
          x.quietStart,
          x.quietEnd,
          x.allowUrgent ? 1 : 0,
          x.plainPerHour,
          x.updatedAt,
        ),
      );
    },
    async setActive(userId, device, until) {
      await commits.run(() =>
        until === null ? attention.away.run(userId, device) : attention.active.run(userId, device, until),
      );
    },
    async isActive(userId, at) {
      return attention.isActive.get(userId, at, userId, at) !== undefined;
    },
    async enqueueStale(input) {
      if (input.subscriptionIds.length === 0) return 0;
      const { id, agentId, messageId, at, userId } = input;
      const ids = JSON.stringify(input.subscriptionIds);
      return commits.run(() => notices.stale.run(id, agentId, messageId, at, at, ids, userId).changes);
    },
  };
}
