// The SQLite Store: every repository over one better-sqlite3 connection whose schema is already migrated.
import type { Store } from '@screen-service/registry/model';
import type { SqliteDb } from './rows.js';
import { createSqliteAgents } from './sqlite-agents.js';
import { createSqliteConnectors } from './sqlite-connectors.js';
import { createSqliteHousekeeping } from './sqlite-housekeeping.js';
import { createSqliteManagementTokens } from './sqlite-management-tokens.js';
import { createSqliteNativeAgents } from './sqlite-native-agents.js';
import { createSqliteOAuth } from './sqlite-oauth.js';
import { createSqlitePairing } from './sqlite-pairing.js';
import { createSqlitePhotos } from './sqlite-photos.js';
import { createSqlitePush } from './sqlite-push.js';
import { createSqliteRelay } from './sqlite-relay.js';
import { createSqliteShares } from './sqlite-shares.js';
import { createSqliteThreads } from './sqlite-threads.js';
import { createSqliteSessions, createSqliteUsers } from './sqlite-users.js';

/**
 * Builds the Store over an open database that already carries `coreMigrations`.
 *
 * @example
 * ```ts
 * const db = openDatabase(dataDir); // the server applies coreMigrations
 * const store = createSqliteStore(db);
 * const agents = await store.agents.listByUser(userId);
 * ```
 */
export function createSqliteStore(db: SqliteDb): Store {
  return {
    users: createSqliteUsers(db),
    sessions: createSqliteSessions(db),
    agents: createSqliteAgents(db),
    connectors: createSqliteConnectors(db),
    pairing: createSqlitePairing(db),
    threads: createSqliteThreads(db),
    photos: createSqlitePhotos(db),
    oauth: createSqliteOAuth(db),
    relay: createSqliteRelay(db),
    managementTokens: createSqliteManagementTokens(db),
    push: createSqlitePush(db),
    nativeAgents: createSqliteNativeAgents(db),
    shares: createSqliteShares(db),
    housekeeping: createSqliteHousekeeping(db),
  };
}
