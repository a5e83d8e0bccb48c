// SQLite agents as stored; which agent is the default and where a new one sorts are the rules' (ADR 0241).

import {
  AGENT_SUMMARY_COLUMNS,
  type AgentPatch,
  type AgentRecord,
  type AgentRepository,
  byListOrder,
  constraintErrors,
  type NewAgent,
  toAgent,
  toAgentSummary,
} from '@screen-service/registry/model';
import { isUniqueViolation, type SqliteDb } from './rows.js';
import { turnRowsOf } from './turn-rows.js';

type Row = Record<string, unknown>;

export function createSqliteAgents(db: SqliteDb): AgentRepository {
  const byId = db.prepare('SELECT * FROM agents WHERE id = ?');
  const byUser = db.prepare('SELECT * FROM agents WHERE user_id = ? ORDER BY sort, created_at, id');
  // The agents a connection serves: those it is the primary connection of, and those bound to it as an
  // extra connection (agent_connections, ADR 0091).
  // Sorted in JS (byListOrder): an ORDER BY over the OR needs a temporary B-tree, which cost about 85 µs of the
  // 100 µs this query took on every tool call (a connection has one or a few agents).
  const byConnector = db.prepare(
    `SELECT * FROM agents WHERE connector_id = @c
       OR id IN (SELECT agent_id FROM agent_connections WHERE connector_id = @c)`,
  );
  const byConnectorUnhandled = db.prepare(
    `SELECT ${AGENT_SUMMARY_COLUMNS}, (SELECT COUNT(*) FROM messages m WHERE m.agent_id = a.id AND m.user_id = @u
         AND m.sender = 'person' AND m.handled_at IS NULL) AS svc_unhandled
     FROM agents a WHERE a.connector_id = @c
       OR a.id IN (SELECT agent_id FROM agent_connections WHERE connector_id = @c)`,
  );
  const byHandle = db.prepare('SELECT * FROM agents WHERE user_id = ? AND handle = ?');
  const byRemoteRef = db.prepare('SELECT * FROM agents WHERE connector_id = ? AND remote_ref = ?');
  const markDefault = db.prepare('UPDATE agents SET is_default = ?, updated_at = ? WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO agents (id, user_id, name, handle, color, avatar, theme, kind, connector_id, remote_ref,
       is_default, sort, created_at, updated_at)
     VALUES (@id, @userId, @name, @handle, @color, @avatar, @theme, @kind, @connectorId, @remoteRef,
       @isDefault, @sort, @createdAt, @createdAt)`,
  );
  const del = db.prepare('DELETE FROM agents WHERE id = ?');
  const setCommands = db.prepare(
    'UPDATE agents SET commands = ?, commands_at = ?, updated_at = ? WHERE id = ?',
  );
  const setCard = db.prepare('UPDATE agents SET card = ?, updated_at = ? WHERE id = ?');
  const setSandbox = db.prepare(
    'UPDATE agents SET sandbox = ?, client_safe = ?, client_safe_at = ? WHERE id = ?',
  );
  const bind = db.prepare(
    'UPDATE agents SET connector_id = ?, remote_ref = ?, kind = ?, updated_at = ? WHERE id = ?',
  );
  const addConnection = db.prepare(
    `INSERT INTO agent_connections (agent_id, connector_id, user_id, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, connector_id) DO NOTHING`,
  );
  const setSort = db.prepare('UPDATE agents SET sort = ?, updated_at = ? WHERE id = ? AND user_id = ?');

  const read = (id: string): AgentRecord | null => {
    const r = byId.get(id) as Row | undefined;
    return r ? toAgent(r) : null;
  };
  // A burst of one thread's requests reads its agent once per turn (ADR 0302).
  const kept = turnRowsOf<AgentRecord>(db, 'agents');
  const get = (id: string): AgentRecord | null => kept.get(id, read);
  const { handleTaken, profileAlreadyAdded } = constraintErrors;

  const create = (a: NewAgent): AgentRecord => {
    insert.run({
      id: a.id,
      userId: a.userId,
      name: a.name,
      handle: a.handle,
      color: a.color,
      avatar: a.avatar ?? null,
      theme: JSON.stringify(a.theme ?? {}),
      kind: a.kind,
      connectorId: a.connectorId ?? null,
      remoteRef: a.remoteRef ?? null,
      isDefault: a.isDefault ? 1 : 0,
      sort: a.sort,
      createdAt: a.createdAt,
    });
    return get(a.id)!;
  };

  const setOrder = db.transaction((userId: string, ids: string[], at: number) => {
    for (const [i, id] of ids.entries()) setSort.run(i, at, id, userId);
  });

  const columns: Record<keyof AgentPatch, string> = {
    name: 'name',
    handle: 'handle',
    color: 'color',
    avatar: 'avatar',
    theme: 'theme',
    pushMuted: 'push_muted',
    sort: 'sort',
  };

  return {
    async create(a) {
      try {
        return create(a);
      } catch (err) {
        if (isUniqueViolation(err, 'agents.user_id, agents.handle')) throw handleTaken(a.handle);
        if (isUniqueViolation(err, 'agents.connector_id, agents.remote_ref')) {
          throw profileAlreadyAdded(a.remoteRef);
        }
        throw err;
      }
    },
    async get(id) {
      return get(id);
    },
    async listByUser(userId) {
      return (byUser.all(userId) as Row[]).map(toAgent);
    },
    async listByConnector(connectorId) {
      return (byConnector.all({ c: connectorId }) as Row[]).map(toAgent).sort(byListOrder);
    },
    async listByConnectorWithUnhandled(connectorId, userId) {
      return (byConnectorUnhandled.all({ c: connectorId, u: userId }) as Row[])
        .map((r) => ({ agent: toAgentSummary(r), unhandled: Number(r.svc_unhandled) }))
        .sort((x, y) => byListOrder(x.agent, y.agent));
    },
    async findByHandle(userId, handle) {
      const r = byHandle.get(userId, handle) as Row | undefined;
      return r ? toAgent(r) : null;
    },
    async findByRemoteRef(connectorId, remoteRef) {
      const r = byRemoteRef.get(connectorId, remoteRef) as Row | undefined;
      return r ? toAgent(r) : null;
    },
    async update(id, patch, at) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [key, column] of Object.entries(columns) as [keyof AgentPatch, string][]) {
        const v = patch[key];
        if (v === undefined) continue;
        sets.push(`${column} = ?`);
        values.push(key === 'theme' ? JSON.stringify(v) : typeof v === 'boolean' ? (v ? 1 : 0) : v);
      }
      if (sets.length > 0) {
        try {
          db.prepare(`UPDATE agents SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`).run(
            ...values,
            at,
            id,
          );
        } catch (err) {
          if (isUniqueViolation(err, 'agents.user_id, agents.handle')) throw handleTaken(patch.handle ?? '');
          throw err;
        }
      }
      return get(id);
    },
    async markDefault(id, isDefault, at) {
      markDefault.run(isDefault ? 1 : 0, at, id);
    },
    async setOrder(userId, ids, at) {
      setOrder(userId, ids, at);
    },
    async delete(id) {
      return del.run(id).changes > 0;
    },
    async bind(id, to, at) {
      try {
        bind.run(to.connectorId, to.remoteRef, to.kind, at, id);
      } catch (err) {
        if (isUniqueViolation(err, 'agents.connector_id, agents.remote_ref')) {
          throw profileAlreadyAdded(to.remoteRef);
        }
        throw err;
      }
    },
    async addConnection(id, connectorId, userId, at) {
      addConnection.run(id, connectorId, userId, at);
    },
    async setCommands(id, commands, at) {
      return setCommands.run(commands === null ? null : JSON.stringify(commands), at, at, id).changes > 0;
    },
    async setCard(id, card, at) {
      return setCard.run(card === null ? null : JSON.stringify(card), at, id).changes > 0;
    },
    async setSandbox(id, s) {
      setSandbox.run(
        s.sandbox === null ? null : JSON.stringify(s.sandbox),
        s.clientSafe ? 1 : 0,
        s.clientSafeAt,
        id,
      );
    },
  };
}
