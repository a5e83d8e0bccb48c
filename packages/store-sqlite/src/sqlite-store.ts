// The SQLite Store: every repository over one better-sqlite3 connection whose schema is already migrated,
// and transactions that join the connection's group commit (ADR 0241).
import { guardRepositories, type Repositories, type Store } from '@screen-service/registry/model';
import { groupCommitOf, INLINE_WRITES, type WriteRunner } from './group-commit.js';
import type { SqliteDb } from './rows.js';
import { createSqliteAgents } from './sqlite-agents.js';
import { createSqliteConnectors } from './sqlite-connectors.js';
import { createSqliteDeadlines } from './sqlite-deadlines.js';
import { createSqliteHousekeeping } from './sqlite-housekeeping.js';
import { createSqliteManagementTokens } from './sqlite-management-tokens.js';
import { createSqliteNativeAgents } from './sqlite-native-agents.js';
import { createSqliteOAuth } from './sqlite-oauth.js';
import { createSqlitePairing } from './sqlite-pairing.js';
import { createSqlitePhotos } from './sqlite-photos.js';
import { createSqlitePush } from './sqlite-push.js';
import { createSqliteReceipts } from './sqlite-receipts.js';
import { createSqliteRelay } from './sqlite-relay.js';
import { createSqliteShares } from './sqlite-shares.js';
import { createSqliteTasks } from './sqlite-tasks.js';
import { createSqliteThreads } from './sqlite-threads.js';
import { createSqliteSessions, createSqliteUsers } from './sqlite-users.js';

/** Every repository but the relay's, its writes run by `writes` (the group commit, or a body's transaction). */
function createRepositories(db: SqliteDb, writes: WriteRunner): Repositories {
  return {
    users: createSqliteUsers(db),
    sessions: createSqliteSessions(db),
    agents: createSqliteAgents(db),
    connectors: createSqliteConnectors(db),
    pairing: createSqlitePairing(db),
    threads: createSqliteThreads(db, writes),
    photos: createSqlitePhotos(db),
    oauth: createSqliteOAuth(db),
    managementTokens: createSqliteManagementTokens(db),
    push: createSqlitePush(db, writes),
    nativeAgents: createSqliteNativeAgents(db),
    shares: createSqliteShares(db),
    housekeeping: createSqliteHousekeeping(db),
    deadlines: createSqliteDeadlines(db),
    receipts: createSqliteReceipts(db),
    tasks: createSqliteTasks(db),
  };
}

/**
 * Builds the Store over an open database that already carries `coreMigrations`.
 *
 * `transaction(fn)` queues `fn` on the connection's group commit: it runs between the BEGIN and COMMIT of
 * the next flush with the other requests' writes and bodies of that turn, and `tx`'s calls run at once in
 * it. While a flush runs bodies, a plain call from another request waits for its commit (no call ever
 * reads or lands in uncommitted work); a plain call from inside a body is refused (ADR 0241).
 *
 * @example
 * ```ts
 * const db = openDatabase(dataDir); // the server applies coreMigrations
 * const store = createSqliteStore(db);
 * const agents = await store.agents.listByUser(userId);
 * ```
 */
export function createSqliteStore(db: SqliteDb): Store {
  const commits = groupCommitOf(db);
  const check = (name: string) => commits.check(name);
  const plain = guardRepositories(createRepositories(db, commits), check);
  // Built once: a tx's calls are the same statements, run at once; each asserts it runs in a live body.
  const tx = guardRepositories(createRepositories(db, INLINE_WRITES), (name) => {
    commits.assertInBody(name);
    return undefined;
  });
  return {
    ...plain,
    relay: guardRepositories({ relay: createSqliteRelay(db) }, check).relay,
    transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
      return commits.runBody(() => fn(tx));
    },
  };
}
