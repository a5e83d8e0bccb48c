// SQLite native-agent settings (migration 11): one row per agent the service runs on its own model.

import type { NativeAgentRepository } from '@screen-service/registry/model';
import { toNativeAgent } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';

type Row = Record<string, unknown>;

/** Native-agent rows over a database that carries `coreMigrations`. */
export function createSqliteNativeAgents(db: SqliteDb): NativeAgentRepository {
  const put = db.prepare(
    `INSERT INTO native_agents (agent_id, user_id, template, instructions, created_at, updated_at)
     VALUES (@agentId, @userId, @template, @instructions, @createdAt, @updatedAt)
     ON CONFLICT (agent_id) DO UPDATE SET template = excluded.template,
       instructions = excluded.instructions, updated_at = excluded.updated_at`,
  );
  const get = db.prepare('SELECT * FROM native_agents WHERE agent_id = ?');
  const setText = db.prepare('UPDATE native_agents SET instructions = ?, updated_at = ? WHERE agent_id = ?');
  const pending = db.prepare(
    `SELECT n.agent_id AS agentId, n.user_id AS userId FROM native_agents n WHERE EXISTS (
       SELECT 1 FROM messages m WHERE m.agent_id = n.agent_id AND m.user_id = n.user_id
         AND m.sender = 'person' AND m.handled_at IS NULL)`,
  );
  const read = (agentId: string) => {
    const row = get.get(agentId) as Row | undefined;
    return row ? toNativeAgent(row) : null;
  };
  return {
    async save(record) {
      put.run(record);
      return read(record.agentId)!;
    },
    async get(agentId) {
      return read(agentId);
    },
    async setInstructions(agentId, instructions, at) {
      return setText.run(instructions, at, agentId).changes === 0 ? null : read(agentId);
    },
    async listWithPending() {
      return pending.all() as { agentId: string; userId: string }[];
    },
  };
}
