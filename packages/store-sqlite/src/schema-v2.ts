// The service schema's first two big migrations on SQLite (version 2: accounts, agents, pairing, threads,
// photos; version 4: OAuth sign-in), kept apart from migrations.ts so each file stays readable. Append-only:
// a shipped migration is never edited.

/** Version 2: the service schema every later migration builds on. */
export const SCHEMA_V2 = `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  first_name TEXT,
  created_at INTEGER NOT NULL,
  suspended_at INTEGER
) STRICT;

CREATE TABLE app_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,
  refresh_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  revoked_at INTEGER
) STRICT;
CREATE INDEX app_sessions_user ON app_sessions(user_id);
CREATE INDEX app_sessions_family ON app_sessions(family_id);

CREATE TABLE connectors (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('hostfw', 'http', 'mcp', 'hosted')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER,
  revoked_at INTEGER,
  suspended_at INTEGER,
  UNIQUE (id, user_id)
) STRICT;
CREATE INDEX connectors_user ON connectors(user_id);

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
  handle TEXT NOT NULL,
  color TEXT NOT NULL CHECK (color IN ('lavender', 'mint', 'butter', 'brand')),
  avatar TEXT,
  theme TEXT NOT NULL DEFAULT '{}' CHECK (length(CAST(theme AS BLOB)) <= 2048),
  push_muted INTEGER NOT NULL DEFAULT 0 CHECK (push_muted IN (0, 1)),
  kind TEXT NOT NULL CHECK (kind IN ('hostfw', 'http', 'mcp', 'hosted')),
  connector_id TEXT REFERENCES connectors(id) ON DELETE SET NULL,
  remote_ref TEXT,
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  sort INTEGER NOT NULL DEFAULT 0,
  commands TEXT CHECK (commands IS NULL OR length(CAST(commands AS BLOB)) <= 32768),
  commands_at INTEGER,
  client_safe INTEGER NOT NULL DEFAULT 0 CHECK (client_safe IN (0, 1)),
  sandbox TEXT,
  client_safe_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (user_id, handle),
  UNIQUE (connector_id, remote_ref)
) STRICT;
CREATE INDEX agents_user ON agents(user_id, sort);
CREATE UNIQUE INDEX agents_one_default ON agents(user_id) WHERE is_default = 1;

CREATE TABLE pairing_codes (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  connector_id TEXT REFERENCES connectors(id) ON DELETE SET NULL
) STRICT;
CREATE UNIQUE INDEX pairing_codes_unused_hash ON pairing_codes(code_hash) WHERE used_at IS NULL;
CREATE INDEX pairing_codes_agent ON pairing_codes(agent_id);

CREATE TABLE pair_attempts (
  client_addr TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX pair_attempts_addr ON pair_attempts(client_addr, at);

CREATE TABLE messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  sender TEXT NOT NULL CHECK (sender IN ('agent', 'person')),
  kind TEXT NOT NULL CHECK (kind IN ('text', 'screen', 'tap')),
  body TEXT NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}',
  screen_id TEXT,
  connector_id TEXT REFERENCES connectors(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER,
  handled_at INTEGER
) STRICT;
CREATE INDEX messages_thread ON messages(agent_id, user_id, seq);
CREATE INDEX messages_unhandled ON messages(agent_id, user_id, seq) WHERE sender = 'person' AND handled_at IS NULL;

CREATE TABLE screens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  message_seq INTEGER NOT NULL,
  lines TEXT NOT NULL,
  ops TEXT NOT NULL,
  taps TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX screens_thread ON screens(agent_id, user_id);

CREATE TABLE photos (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
  file TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX photos_message ON photos(message_id);

CREATE TABLE thread_state (
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  read_seq INTEGER NOT NULL DEFAULT 0,
  open INTEGER NOT NULL DEFAULT 0 CHECK (open IN (0, 1)),
  open_changed_at INTEGER,
  PRIMARY KEY (agent_id, user_id)
) STRICT;

CREATE TABLE push_intents (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
) STRICT;
CREATE INDEX push_intents_pending ON push_intents(created_at) WHERE sent_at IS NULL;
`;

// OAuth 2.1 sign-in (doc1): registered clients, authorization requests (consent, code) and tokens.
// Each approval is a connector (via 'oauth'); its tokens cascade from it, so removing or deleting the
// connection ends them. Only hashes of the client secret, browser secret, code and tokens are stored.
export const SCHEMA_V4_OAUTH = `
ALTER TABLE connectors ADD COLUMN via TEXT NOT NULL DEFAULT 'pairing' CHECK (via IN ('pairing', 'oauth'));

CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  secret_hash TEXT,
  auth_method TEXT NOT NULL CHECK (auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  CHECK ((auth_method = 'none') = (secret_hash IS NULL))
) STRICT;

CREATE TABLE oauth_requests (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  state TEXT,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  browser_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  agent_id TEXT REFERENCES agents(id) ON DELETE SET NULL,
  decided_at INTEGER,
  finished_at INTEGER,
  code_hash TEXT UNIQUE,
  code_expires_at INTEGER,
  code_used_at INTEGER,
  connector_id TEXT REFERENCES connectors(id) ON DELETE CASCADE
) STRICT;
CREATE INDEX oauth_requests_expiry ON oauth_requests(expires_at);
CREATE INDEX oauth_requests_user ON oauth_requests(user_id);
CREATE INDEX oauth_requests_connector ON oauth_requests(connector_id);

CREATE TABLE oauth_tokens (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  token_hash TEXT NOT NULL UNIQUE,
  connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  revoked_at INTEGER
) STRICT;
CREATE INDEX oauth_tokens_connector ON oauth_tokens(connector_id);
CREATE INDEX oauth_tokens_user ON oauth_tokens(user_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens(expires_at);
`;
