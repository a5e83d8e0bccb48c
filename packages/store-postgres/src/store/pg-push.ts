// PostgreSQL push subscriptions, outbox and presence. The rules queue a message's buzz in the message's own
// transaction (enqueueMessage); whether it buzzes is theirs to decide (ADR 0241).

import type { PushRepository } from '@screen-service/registry/model';
import {
  toPushDelivery,
  toPushNotice,
  toPushSettings,
  toPushSubscription,
} from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';

// One outbox row per subscription of the user, ids `${id}.${n}` in subscription id order.
const FAN_OUT = `INSERT INTO push_outbox (id, user_id, agent_id, subscription_id, kind, message_id, created_at, next_at)
  SELECT $1::text || '.' || ROW_NUMBER() OVER (ORDER BY id COLLATE "C"), user_id, $2, id, $3, $4, $5, $5
  FROM push_subscriptions WHERE user_id = $6`;

// A message's push intent and its outbox rows in one statement (one round trip, atomic on its own).
const MESSAGE_PUSH = `WITH intent AS (
    INSERT INTO push_intents (id, user_id, agent_id, message_id, created_at, sent_at)
    VALUES ($1, $6, $2, $4, $5, NULL)
  )
  ${FAN_OUT}`;

// The open notices of a screen still their device's newest for the thread (what it shows), closed together.
const CLOSE_NOTICES = `WITH shown AS (
    SELECT n.id FROM push_notices n WHERE n.screen_id = $1 AND n.closed_at IS NULL AND NOT EXISTS (
      SELECT 1 FROM push_notices m WHERE m.subscription_id = n.subscription_id AND m.agent_id = n.agent_id
        AND (m.created_at > n.created_at OR (m.created_at = n.created_at AND m.id COLLATE "C" > n.id COLLATE "C")))
  )
  UPDATE push_notices p SET closed_at = $2 WHERE p.screen_id = $1 AND p.closed_at IS NULL
  RETURNING p.*, p.id IN (SELECT id FROM shown) AS shown`;

export function createPgPush(db: PgDb): PushRepository {
  return {
    async saveSubscription(sub) {
      const r = await db.one(
        `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, device, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, device = excluded.device
           WHERE push_subscriptions.user_id = excluded.user_id
         RETURNING *`,
        [sub.id, sub.userId, sub.endpoint, sub.p256dh, sub.auth, sub.device, sub.createdAt],
      );
      return r ? toPushSubscription(r) : null;
    },
    async listSubscriptions(userId) {
      const rows = await db.all(
        'SELECT * FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at, id COLLATE "C"',
        [userId],
      );
      return rows.map((r) => toPushSubscription(r));
    },
    async removeSubscription(userId, endpoint) {
      return (
        (await db.run('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [
          userId,
          endpoint,
        ])) > 0
      );
    },
    async removeSubscriptionById(id) {
      await db.run('DELETE FROM push_subscriptions WHERE id = $1', [id]);
    },
    async enqueueRevoked(input) {
      return db.run(FAN_OUT, [input.id, input.agentId, 'revoked', null, input.at, input.userId]);
    },
    async enqueueMessage(p) {
      return db.run(MESSAGE_PUSH, [p.id, p.agentId, 'message', p.messageId, p.at, p.userId]);
    },
    async due(at, limit) {
      const rows = await db.all(
        `SELECT o.*, s.id AS s_id, s.user_id AS s_user_id, s.endpoint AS s_endpoint, s.p256dh AS s_p256dh,
           s.auth AS s_auth, s.device AS s_device, s.created_at AS s_created_at
         FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
         WHERE o.next_at <= $1 ORDER BY o.next_at, o.created_at, o.id COLLATE "C" LIMIT $2`,
        [at, limit],
      );
      return rows.map((r) => ({ row: toPushDelivery(r), subscription: toPushSubscription(r, 's_') }));
    },
    async nextDueAt() {
      const r = await db.one<{ t: number | null }>('SELECT MIN(next_at) AS t FROM push_outbox');
      return r?.t ?? null;
    },
    async settle(ids) {
      if (ids.length > 0) await db.run('DELETE FROM push_outbox WHERE id = ANY($1::text[])', [ids]);
    },
    async postpone(ids, nextAt, attempt) {
      if (ids.length === 0) return;
      await db.run(
        'UPDATE push_outbox SET next_at = $1, attempts = attempts + $2 WHERE id = ANY($3::text[])',
        [nextAt, attempt ? 1 : 0, ids],
      );
    },
    async markIntentsSent(messageIds, at) {
      if (messageIds.length === 0) return;
      await db.run(
        'UPDATE push_intents SET sent_at = $1 WHERE sent_at IS NULL AND message_id = ANY($2::text[])',
        [at, messageIds],
      );
    },
    async setPresence(k, device, until) {
      if (until === null) {
        await db.run('DELETE FROM thread_presence WHERE agent_id = $1 AND user_id = $2 AND device = $3', [
          k.agentId,
          k.userId,
          device,
        ]);
      } else {
        await db.run(
          `INSERT INTO thread_presence (agent_id, user_id, device, until) VALUES ($1, $2, $3, $4)
           ON CONFLICT (agent_id, user_id, device) DO UPDATE SET until = excluded.until`,
          [k.agentId, k.userId, device, until],
        );
      }
    },
    async isOpen(k, at) {
      const r = await db.one(
        'SELECT 1 AS x FROM thread_presence WHERE agent_id = $1 AND user_id = $2 AND until > $3 LIMIT 1',
        [k.agentId, k.userId, at],
      );
      return r !== undefined;
    },
    async saveNotice(n) {
      await db.run(
        `WITH pruned AS (
           DELETE FROM push_notices WHERE subscription_id = $4 AND agent_id = $3 AND expires_at <= $10
         )
         INSERT INTO push_notices (id, user_id, agent_id, subscription_id, message_id, screen_id, token_hash,
           tap_id, choices, created_at, expires_at, used_at, closed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          n.id,
          n.userId,
          n.agentId,
          n.subscriptionId,
          n.messageId,
          n.screenId,
          n.tokenHash,
          n.tapId,
          JSON.stringify(n.choices),
          n.createdAt,
          n.expiresAt,
          n.usedAt,
          n.closedAt,
        ],
      );
    },
    async findNotice(tokenHash) {
      const r = await db.one('SELECT * FROM push_notices WHERE token_hash = $1', [tokenHash]);
      return r ? toPushNotice(r) : null;
    },
    async useNotice(id, at) {
      const n = await db.run(
        `UPDATE push_notices SET used_at = $2, closed_at = $2
         WHERE id = $1 AND used_at IS NULL AND closed_at IS NULL AND expires_at > $2`,
        [id, at],
      );
      return n > 0;
    },
    async closeNotices(screenId, at) {
      const rows = await db.all(CLOSE_NOTICES, [screenId, at]);
      return rows
        .filter((r) => r.shown === true)
        .map((r) => toPushNotice(r))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async getSettings(userId) {
      const r = await db.one('SELECT * FROM push_settings WHERE user_id = $1', [userId]);
      return r ? toPushSettings(r) : null;
    },
    async saveSettings(x) {
      await db.run(
        `INSERT INTO push_settings (user_id, quiet_start, quiet_end, allow_urgent, plain_per_hour, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
           allow_urgent = excluded.allow_urgent, plain_per_hour = excluded.plain_per_hour,
           updated_at = excluded.updated_at`,
        [x.userId, x.quietStart, x.quietEnd, x.allowUrgent, x.plainPerHour, x.updatedAt],
      );
    },
    async setActive(userId, device, until) {
      if (until === null) {
        await db.run('DELETE FROM person_presence WHERE user_id = $1 AND device = $2', [userId, device]);
      } else {
        await db.run(
          `INSERT INTO person_presence (user_id, device, until) VALUES ($1, $2, $3)
           ON CONFLICT (user_id, device) DO UPDATE SET until = excluded.until`,
          [userId, device, until],
        );
      }
    },
    async isActive(userId, at) {
      const r = await db.one(
        `SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM person_presence WHERE user_id = $1 AND until > $2)
           OR EXISTS (SELECT 1 FROM thread_presence WHERE user_id = $1 AND until > $2)`,
        [userId, at],
      );
      return r !== undefined;
    },
    async enqueueStale(input) {
      if (input.subscriptionIds.length === 0) return 0;
      return db.run(
        `INSERT INTO push_outbox (id, user_id, agent_id, subscription_id, kind, message_id, created_at, next_at)
         SELECT $1::text || '.' || j.n, s.user_id, $2, s.id, 'stale', $3, $4, $4
         FROM unnest($5::text[]) WITH ORDINALITY AS j(sid, n) JOIN push_subscriptions s ON s.id = j.sid AND s.user_id = $6`,
        [input.id, input.agentId, input.messageId, input.at, input.subscriptionIds, input.userId],
      );
    },
  };
}
