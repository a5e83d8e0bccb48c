// Migration 14: fewer keys checked by an agent row's statement (issue 42, ADR 0291). A screen's and a push
// intent's person and agent are their message's, whose keys cascade to them through `message_id`: their own
// keys on users and agents only made every insert lock those hot parent rows (a multixact per concurrent
// writer). The screens' thread index served only those cascades. A message's connection is set to NULL by
// the connection's delete (`connectors.delete`, one statement) instead of by a key checked on every row.

export const AGENT_ROW_KEYS_V14 = `
ALTER TABLE screens DROP CONSTRAINT IF EXISTS screens_user_id_fkey,
  DROP CONSTRAINT IF EXISTS screens_agent_id_fkey;
DROP INDEX IF EXISTS screens_thread;
ALTER TABLE push_intents DROP CONSTRAINT IF EXISTS push_intents_user_id_fkey,
  DROP CONSTRAINT IF EXISTS push_intents_agent_id_fkey;
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_connector_id_fkey;
`;
