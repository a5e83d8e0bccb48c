// PostgreSQL agents as stored; which agent is the default and where a new one sorts are the rules' (ADR
// 0241), which lock the user's row first (two instances adding a user's first agent make one default).

import {
  type AgentPatch,
  type AgentRepository,
  byListOrder,
  constraintErrors,
  type NewAgent,
  type ReadOptions,
  toAgent,
} from '@screen-service/registry/model';
import { changes, first, forUpdate, isUniqueViolation, type PgDb, type Queryable } from './pg-db.js';
import { servedAgentsReader } from './served-agents-read.js';

// Text ties are broken byte-wise (COLLATE "C"), as SQLite compares text, whatever the database's locale.
const USER_ORDER = 'ORDER BY sort, created_at, id COLLATE "C"';

const { handleTaken, profileAlreadyAdded } = constraintErrors;

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
  const readServed = servedAgentsReader(db);
  const create = async (a: NewAgent) => {
    const r = await db.one(
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
        a.isDefault,
        a.sort,
        a.createdAt,
      ],
    );
    return toAgent(r!);
  };

  return {
    async create(a) {
      try {
        return await create(a);
      } catch (err) {
        if (isUniqueViolation(err, 'agents_handle_unique')) throw handleTaken(a.handle);
        if (isUniqueViolation(err, 'agents_remote_ref_unique')) {
          throw profileAlreadyAdded(a.remoteRef);
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
        // Each half through its index (an OR over the two would scan every agent).
        `SELECT * FROM agents WHERE id IN (SELECT id FROM agents WHERE connector_id = $1
           UNION SELECT agent_id FROM agent_connections WHERE connector_id = $1)`,
        [connectorId],
      );
      return rows.map(toAgent).sort(byListOrder);
    },
    async listByConnectorWithUnhandled(connectorId, userId) {
      // One statement for svc_threads (ADR 0289), shared by the reads that come while one is on its way (ADR 0296).
      return readServed(connectorId, userId);
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
    async markDefault(id, isDefault, at) {
      await db.run('UPDATE agents SET is_default = $1, updated_at = $2 WHERE id = $3', [isDefault, at, id]);
    },
    async setOrder(userId, ids, at) {
      // One statement: each id's position in the array becomes its sort.
      await db.run(
        `UPDATE agents a SET sort = o.pos - 1, updated_at = $3
         FROM unnest($2::text[]) WITH ORDINALITY AS o(id, pos)
         WHERE a.id = o.id AND a.user_id = $1`,
        [userId, ids, at],
      );
    },
    async delete(id) {
      return (await db.run('DELETE FROM agents WHERE id = $1', [id])) > 0;
    },
    async bind(id, to, at) {
      try {
        await db.run(
          'UPDATE agents SET connector_id = $1, remote_ref = $2, kind = $3, updated_at = $4 WHERE id = $5',
          [to.connectorId, to.remoteRef, to.kind, at, id],
        );
      } catch (err) {
        if (isUniqueViolation(err, 'agents_remote_ref_unique')) {
          throw profileAlreadyAdded(to.remoteRef);
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
