// Migration 23: task-augmented svc_answers (MCP Tasks extension, issue 41, ADR 0265), kept apart so
// migrations.ts stays one list.

/**
 * One row per task: whose it is (user and connection), the thread it waits on, the answer rows it claimed
 * (a JSON array of message ids, written with `completed` in the claim's own transaction) and when it expires.
 * Tasks go with their user, agent or connection; the expiry index serves housekeeping's delete.
 */
export const SCHEMA_V23_TASKS = `
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  after_seq INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'working' CHECK (status IN ('working', 'completed', 'cancelled')),
  message_ids TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX tasks_expiry ON tasks(expires_at);
CREATE INDEX tasks_user ON tasks(user_id);
CREATE INDEX tasks_connector ON tasks(connector_id);
CREATE INDEX tasks_agent ON tasks(agent_id);
`;
