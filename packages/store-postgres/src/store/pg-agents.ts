// PostgreSQL agents: default hand-over and ordering in one transaction per call, serialised per user by
// locking the user's row first (two instances creating a user's first agent cannot both make it default).

import { ServiceError } from '@screen-service/registry/kernel';
import type {
  AgentPatch,
  AgentRecord,
  AgentRepository,
  NewAgent,
  ReadOptions,
} from '@screen-service/registry/model';
import { changes, first, forUpdate, isUniqueViolation, type PgDb, type Queryable } from './pg-db.js';
import { toAgent } from './rows.js';

/** The agent list's order: the default first, then `sort`, then age, then id (ties never left to chance). */
function byListOrder(a: AgentRecord, b: AgentRecord): number {
  return (
    Number(b.isDefault) - Number(a.isDefault) ||
    a.sort - b.sort ||
    a.createdAt - b.createdAt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

// Text ties are broken byte-wise (COLLATE "C"), as SQLite compares text, whatever the database's locale.
const USER_ORDER = 'ORDER BY sort, created_at, id COLLATE "C"';

const handleTaken = (handle: string) =>
  new ServiceError('HANDLE_TAKEN', `Another agent already uses the handle "${handle}"; pick another.`, {
    field: 'handle',
  });

const lockUser = (q: Queryable, userId: string) =>
  q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);

const getAgent = async (q: Queryable, id: string, options?: ReadOptions) => {
  const r = await first(q, `SELECT * FROM agents WHERE id = $1${forUpdate(options)}`, [id]);
  return r ? toAgent(r) : null;
};

const COLUMNS: Record<keyof AgentPatch, string> = {
  name: 'name',
  handle: 'handle',
  color: 'color',
  avatar: 'avatar',
  theme: 'theme',
  pushMuted: 'push_muted',
  sort: 'sort',
};

export function createPgAgents(db: PgDb): AgentRepository {
  const create = (a: NewAgent) =>
    db.tx(async (q) => {
      await lockUser(q, a.userId);
      const s = (await first<{ n: number; max_sort: number }>(
        q,
        'SELECT COUNT(*) AS n, COALESCE(MAX(sort), -1) AS max_sort FROM agents WHERE user_id = $1',
        [a.userId],
      ))!;
      const isDefault = a.isDefault === true || Number(s.n) === 0;
      if (isDefault)
        await q.query('UPDATE agents SET is_default = FALSE WHERE user_id = $1 AND is_default', [a.userId]);
      const r = await first(
        q,
        `INSERT INTO agents (id, user_id, name, handle, color, avatar, theme, kind, connector_id, remote_ref,
           is_default, sort, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING *`,
        [
          a.id,
          a.userId,
          a.name,
          a.handle,
          a.color,
          a.avatar ?? null,
          JSON.stringify(a.theme ?? {}),
          a.kind,
          a.connectorId ?? null,
          a.remoteRef ?? null,
          isDefault,
          Number(s.max_sort) + 1,
          a.createdAt,
        ],
      );
      return toAgent(r!);
    });

  return {
    async create(a) {
      try {
        return await create(a);
      } catch (err) {
        if (isUniqueViolation(err, 'agents_handle_unique')) throw handleTaken(a.handle);
        if (isUniqueViolation(err, 'agents_remote_ref_unique')) {
          throw new ServiceError('PROFILE_ALREADY_ADDED', `The profile "${a.remoteRef}" is already added.`, {
            field: 'remote_ref',
          });
        }
        throw err;
      }
    },
    async get(id, options) {
      return getAgent(db, id, options);
    },
    async listByUser(userId) {
      return (await db.all(`SELECT * FROM agents WHERE user_id = $1 ${USER_ORDER}`, [userId])).map(toAgent);
    },
    async listByConnector(connectorId) {
      const rows = await db.all(
        `SELECT * FROM agents WHERE connector_id = $1
           OR id IN (SELECT agent_id FROM agent_connections WHERE connector_id = $1)`,
        [connectorId],
      );
      return rows.map(toAgent).sort(byListOrder);
    },
    async findByHandle(userId, handle) {
      const r = await db.one('SELECT * FROM agents WHERE user_id = $1 AND handle = $2', [userId, handle]);
      return r ? toAgent(r) : null;
    },
    async findByRemoteRef(connectorId, remoteRef) {
      const r = await db.one('SELECT * FROM agents WHERE connector_id = $1 AND remote_ref = $2', [
        connectorId,
        remoteRef,
      ]);
      return r ? toAgent(r) : null;
    },
    async update(id, patch, at) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [key, column] of Object.entries(COLUMNS) as [keyof AgentPatch, string][]) {
        const v = patch[key];
        if (v === undefined) continue;
        values.push(key === 'theme' ? JSON.stringify(v) : v);
        sets.push(`${column} = $${values.length}`);
      }
      if (sets.length === 0) return getAgent(db, id);
      values.push(at, id);
      try {
        const r = await db.one(
          `UPDATE agents SET ${sets.join(', ')}, updated_at = $${values.length - 1} WHERE id = $${values.length} RETURNING *`,
          values,
        );
        return r ? toAgent(r) : null;
      } catch (err) {
        if (isUniqueViolation(err, 'agents_handle_unique')) throw handleTaken(patch.handle ?? '');
        throw err;
      }
    },
    async setDefault(userId, agentId, at) {
      return db.tx(async (q) => {
        await lockUser(q, userId);
        const a = await getAgent(q, agentId);
        if (!a || a.userId !== userId) return null;
        await q.query('UPDATE agents SET is_default = FALSE WHERE user_id = $1 AND is_default', [userId]);
        await q.query('UPDATE agents SET is_default = TRUE, updated_at = $1 WHERE id = $2 AND user_id = $3', [
          at,
          agentId,
          userId,
        ]);
        return getAgent(q, agentId);
      });
    },
    async reorder(userId, ids, at) {
      await db.tx(async (q) => {
        await lockUser(q, userId);
        const mine = (
          await q.query<{ id: string }>('SELECT id FROM agents WHERE user_id = $1', [userId])
        ).rows.map((r) => r.id);
        const given = new Set(ids);
        if (given.size !== ids.length || mine.length !== ids.length || mine.some((id) => !given.has(id))) {
          throw new ServiceError(
            'INVALID_INPUT',
            'ids must list each of your agents exactly once, in the new order.',
            { field: 'ids' },
          );
        }
        // One statement: each id's position in the array becomes its sort.
        await q.query(
          `UPDATE agents a SET sort = o.pos - 1, updated_at = $3
           FROM unnest($2::text[]) WITH ORDINALITY AS o(id, pos)
           WHERE a.id = o.id AND a.user_id = $1`,
          [userId, ids, at],
        );
      });
    },
    async delete(id, at) {
      const owner = await db.one<{ user_id: string }>('SELECT user_id FROM agents WHERE id = $1', [id]);
      if (!owner) return false;
      return db.tx(async (q) => {
        await lockUser(q, owner.user_id);
        const gone = await first<{ is_default: boolean; user_id: string }>(
          q,
          'DELETE FROM agents WHERE id = $1 RETURNING is_default, user_id',
          [id],
        );
        if (!gone) return false;
        if (gone.is_default) {
          await q.query(
            `UPDATE agents SET is_default = TRUE, updated_at = $1
             WHERE id = (SELECT id FROM agents WHERE user_id = $2 ${USER_ORDER} LIMIT 1)`,
            [at, gone.user_id],
          );
        }
        return true;
      });
    },
    async bind(id, to, at) {
      try {
        await db.run(
          'UPDATE agents SET connector_id = $1, remote_ref = $2, kind = $3, updated_at = $4 WHERE id = $5',
          [to.connectorId, to.remoteRef, to.kind, at, id],
        );
      } catch (err) {
        if (isUniqueViolation(err, 'agents_remote_ref_unique')) {
          throw new ServiceError('PROFILE_ALREADY_ADDED', `The profile "${to.remoteRef}" is already added.`, {
            field: 'remote_ref',
          });
        }
        throw err;
      }
    },
    async addConnection(id, connectorId, userId, at) {
      await db.run(
        `INSERT INTO agent_connections (agent_id, connector_id, user_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [id, connectorId, userId, at],
      );
    },
    async setCommands(id, commands, at) {
      const n = await changes(
        db,
        'UPDATE agents SET commands = $1, commands_at = $2, updated_at = $2 WHERE id = $3',
        [commands === null ? null : JSON.stringify(commands), at, id],
      );
      return n > 0;
    },
    async setCard(id, card, at) {
      const n = await changes(db, 'UPDATE agents SET card = $1, updated_at = $2 WHERE id = $3', [
        card === null ? null : JSON.stringify(card),
        at,
        id,
      ]);
      return n > 0;
    },
    async setSandbox(id, s) {
      await db.run('UPDATE agents SET sandbox = $1, client_safe = $2, client_safe_at = $3 WHERE id = $4', [
        s.sandbox === null ? null : JSON.stringify(s.sandbox),
        s.clientSafe,
        s.clientSafeAt,
        id,
      ]);
    },
  };
}
