// Migration 10: task-augmented svc_answers (MCP Tasks extension, issue 41, ADR 0265), the twin of the SQLite
// store's version 23.

/**
 * One row per task: whose it is (user and connection), the thread it waits on, the answer rows it claimed
 * (written with `completed` in the claim's own transaction) and when it expires.
 */
export const TASKS_V10 = `
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  after_seq BIGINT NOT NULL,
  status TEXT NOT NULL DEFAULT 'working' CHECK (status IN ('working', 'completed', 'cancelled')),
  message_ids JSONB NOT NULL DEFAULT '[]'::jsonb,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX tasks_expiry ON tasks(expires_at);
CREATE INDEX tasks_user ON tasks(user_id);
CREATE INDEX tasks_connector ON tasks(connector_id);
CREATE INDEX tasks_agent ON tasks(agent_id);
`;
