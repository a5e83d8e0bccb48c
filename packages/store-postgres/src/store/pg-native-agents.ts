// PostgreSQL native-agent settings: one row per agent the service runs on its own model.

import type { NativeAgentRepository } from '@screen-service/registry/model';
import { toNativeAgent } from '@screen-service/registry/model';
import type { PgDb } from './pg-db.js';

export function createPgNativeAgents(db: PgDb): NativeAgentRepository {
  return {
    async save(n) {
      const r = await db.one(
        `INSERT INTO native_agents (agent_id, user_id, template, instructions, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (agent_id) DO UPDATE SET template = excluded.template,
           instructions = excluded.instructions, updated_at = excluded.updated_at
         RETURNING *`,
        [n.agentId, n.userId, n.template, n.instructions, n.createdAt, n.updatedAt],
      );
      return toNativeAgent(r!);
    },
    async get(agentId) {
      const r = await db.one('SELECT * FROM native_agents WHERE agent_id = $1', [agentId]);
      return r ? toNativeAgent(r) : null;
    },
    async setInstructions(agentId, instructions, at) {
      const r = await db.one(
        'UPDATE native_agents SET instructions = $1, updated_at = $2 WHERE agent_id = $3 RETURNING *',
        [instructions, at, agentId],
      );
      return r ? toNativeAgent(r) : null;
    },
    async listWithPending() {
      return db.all<{ agentId: string; userId: string }>(
        `SELECT n.agent_id AS "agentId", n.user_id AS "userId" FROM native_agents n WHERE EXISTS (
           SELECT 1 FROM messages m WHERE m.agent_id = n.agent_id AND m.user_id = n.user_id
             AND m.sender = 'person' AND m.handled_at IS NULL)`,
      );
    },
  };
}
