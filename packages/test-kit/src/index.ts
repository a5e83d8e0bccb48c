// @screen-service/test-kit (private): what every package's tests share: a real SQLite file with the service
// schema, a core with a movable clock, seeded randomness and a fast hasher, and seeders.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Core, type CoreOptions, createCore } from '@screen-service/core';
import { normalizeEmail, type PasswordHasher } from '@screen-service/registry/accounts';
import { addAgent } from '@screen-service/registry/agents';
import {
  type Clock,
  hashSecret,
  mintToken,
  newId,
  type Random,
  seededRandom,
  systemRandom,
} from '@screen-service/registry/kernel';
import type {
  AgentColor,
  AgentRecord,
  ConnectorKind,
  ConnectorRecord,
  GrantRecord,
  Store,
  UserRecord,
} from '@screen-service/registry/model';
import type { SqliteDb } from '@screen-service/store-sqlite';
import { createDiskPhotoFiles, createSqliteStore, SERVICE_MIGRATIONS } from '@screen-service/store-sqlite';
import { type Migration, runMigrations } from '@screen-service/tables-engine/migrations';
import Database from 'better-sqlite3';
import { sqliteInspector, type TestInspector } from './inspector.js';

export {
  type InspectorQuery,
  inspectorSql,
  queryInspector,
  type RowMatch,
  sqliteInspector,
  type TestInspector,
} from './inspector.js';

/** A Store over a real SQLite file in a fresh temp directory. */
export interface TestStore {
  dir: string;
  file: string;
  /** The SQLite handle (absent on the PostgreSQL kit: a test that needs it is about SQLite itself). */
  db: SqliteDb;
  store: Store;
  /**
   * Looks at, and sets, what no repository reads or writes, on either store (ADR 0241): every store the
   * kit makes has one (a store made elsewhere may not).
   */
  inspect?: TestInspector;
  /** Closes the database and deletes the directory. */
  close(): void;
}

export interface TestStoreOptions {
  /** Migrations to apply; default: the server's own list (`SERVICE_MIGRATIONS`). */
  migrations?: readonly Migration[];
  /** Temp directory name prefix. */
  prefix?: string;
}

/**
 * A real SQLite file (WAL, foreign keys on) migrated like the server's database.
 *
 * @example
 * ```ts
 * const t = createTestStore();
 * const user = await seedUser(t.store);
 * t.close();
 * ```
 */
export function createTestStore(options: TestStoreOptions = {}): TestStore & { inspect: TestInspector } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? 'svc-test-'));
  const file = path.join(dir, 'svc.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  runMigrations(db, options.migrations ?? SERVICE_MIGRATIONS);
  return {
    dir,
    file,
    db,
    store: createSqliteStore(db),
    inspect: sqliteInspector(db),
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a test store made without an inspector answers: an error saying where one comes from. */
const noInspector: TestInspector = (() => {
  const refuse = () =>
    Promise.reject(
      new Error(
        'this test store has no inspector: make it with createTestStore (or the PostgreSQL rules kit)',
      ),
    );
  return { count: refuse, rows: refuse, update: refuse };
})();

/** A clock tests move by hand. */
export interface TestClock {
  now: Clock;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Sets the clock to `ms` since the epoch. */
  set(ms: number): void;
}

/**
 * A movable clock. `frozen` (the default) stands at `start` (default: the wall clock when it is made)
 * until moved; `running` follows the wall clock plus whatever the test added, for stacks whose timers
 * (long polls, HTTP keep-alive) run in real time.
 */
export function createTestClock(start?: number, mode: 'frozen' | 'running' = 'frozen'): TestClock {
  // The kit's wall-clock reads: a clock near real time keeps JWT and cookie checks realistic.
  let skew = (start ?? Date.now()) - Date.now();
  let t = start ?? Date.now();
  if (mode === 'running') {
    return {
      now: () => Date.now() + skew,
      advance(ms) {
        skew += ms;
      },
      set(ms) {
        skew = ms - Date.now();
      },
    };
  }
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
    set(ms) {
      t = ms;
    },
  };
}

/** A fast PasswordHasher for tests (SHA-256, no work factor): never use it in production. */
export const fastHasher: PasswordHasher = {
  async hash(password) {
    return `fast$${createHash('sha256').update(password, 'utf8').digest('hex')}`;
  },
  async verify(stored, password) {
    return stored === `fast$${createHash('sha256').update(password, 'utf8').digest('hex')}`;
  },
};

/** A Core over a test store, with the parts a test controls. */
export interface TestCore extends Core {
  testStore: TestStore;
  /** The SQLite handle (absent on PostgreSQL: a test that needs it is about SQLite itself). */
  db: SqliteDb;
  /** The test store's inspector (store-neutral): throws when the store was made without one. */
  inspect: TestInspector;
  /** Moves the core's clock forward by `ms`. */
  advance(ms: number): void;
  testClock: TestClock;
  /** Photo files on disk, under the test store's directory. */
  photoDir: string;
  /** Stops waiting calls, closes the database and deletes the directory. */
  close(): void;
}

export interface TestCoreOptions extends Partial<Omit<CoreOptions, 'store' | 'clock' | 'random'>> {
  /** Seeds the randomness (ids, tokens, codes) so a test sees the same values every run; default: the OS CSPRNG. */
  seed?: number;
  /** Start of the movable clock (ms); default: the wall clock. */
  clockStart?: number;
  /** `frozen` (default) or `running` (wall clock plus advances); see {@link createTestClock}. */
  clockMode?: 'frozen' | 'running';
  /** Use this store instead of a fresh one (it is still closed by `close`). */
  testStore?: TestStore;
}

/**
 * The whole core on a fresh SQLite file: a movable clock, seeded (or OS) randomness, the fast hasher, a
 * fixed secret, photo files in the temp dir and base URL `http://127.0.0.1` unless told otherwise.
 *
 * @example
 * ```ts
 * const core = createTestCore({ seed: 1 });
 * const user = await seedUser(core.store);
 * core.advance(11 * 60_000); // codes minted before now expired
 * core.close();
 * ```
 */
export function createTestCore(options: TestCoreOptions = {}): TestCore {
  const { seed, clockStart, clockMode, testStore: given, ...rest } = options;
  const testStore = given ?? createTestStore();
  const testClock = createTestClock(clockStart, clockMode);
  const random: Random = seed === undefined ? systemRandom : seededRandom(seed);
  const photoDir = path.join(testStore.dir, 'photos');
  const core = createCore({
    hasher: fastHasher,
    secret: new TextEncoder().encode('test-secret-test-secret-test-secret'),
    urls: 'http://127.0.0.1',
    photoFiles: createDiskPhotoFiles(photoDir),
    ...rest,
    store: testStore.store,
    clock: testClock.now,
    random,
  });
  return {
    ...core,
    testStore,
    db: testStore.db,
    inspect: testStore.inspect ?? noInspector,
    testClock,
    photoDir,
    advance: testClock.advance,
    close() {
      core.stopping.abort();
      testStore.close();
    },
  };
}

/** Seeder options shared by every seeder. */
export interface SeedOptions {
  /** Row time (ms); default the wall clock. */
  at?: number;
  random?: Random;
}

const stamp = (o: SeedOptions) => o.at ?? Date.now();

/**
 * A user row written straight through the store (password hash not usable for sign-in: use
 * `core.accounts.signUp` when a test signs in).
 */
export async function seedUser(
  store: Store,
  options: SeedOptions & { email?: string; passwordHash?: string } = {},
): Promise<UserRecord> {
  const random = options.random ?? systemRandom;
  return store.users.create({
    id: newId('usr_', random),
    email: normalizeEmail(options.email ?? `${newId('', random)}@example.com`),
    passwordHash: options.passwordHash ?? 'not-a-real-hash',
    firstName: null,
    createdAt: stamp(options),
    suspendedAt: null,
  });
}

/** A connector with a fresh token (`svc_ct_...`), as a paired host has. */
export async function seedConnector(
  store: Store,
  userId: string,
  options: SeedOptions & { kind?: ConnectorKind; name?: string; via?: 'pairing' | 'oauth' } = {},
): Promise<{ token: string; connector: ConnectorRecord }> {
  const random = options.random ?? systemRandom;
  const token = mintToken('svc_ct_', random);
  const connector = await store.connectors.create({
    id: newId('con_', random),
    userId,
    name: options.name ?? 'test host',
    kind: options.kind ?? 'mcp',
    tokenHash: hashSecret(token),
    createdAt: stamp(options),
    lastSeenAt: null,
    revokedAt: null,
    suspendedAt: null,
    ...(options.via ? { via: options.via } : {}),
  });
  return { token, connector };
}

/** An agent row (bound to `connectorId` when given; the user's first agent becomes the default). */
export async function seedAgent(
  store: Store,
  userId: string,
  options: SeedOptions & {
    handle?: string;
    name?: string;
    color?: AgentColor;
    kind?: ConnectorKind;
    connectorId?: string | null;
    remoteRef?: string | null;
  } = {},
): Promise<AgentRecord> {
  const random = options.random ?? systemRandom;
  const handle =
    options.handle ??
    `agent-${newId('', random)
      .slice(0, 8)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x')}`;
  // The registry's rule: the person's first agent is the default, each new one sorts last.
  return addAgent(store, {
    id: newId('agt_', random),
    userId,
    name: options.name ?? handle,
    handle,
    color: options.color ?? 'mint',
    kind: options.kind ?? 'mcp',
    connectorId: options.connectorId ?? null,
    remoteRef: options.remoteRef ?? (options.connectorId ? handle : null),
    createdAt: stamp(options),
  });
}

/** A connector with a fresh token and one agent per handle bound to it (the first becomes the default). */
export async function seedConnection(
  store: Store,
  userId: string,
  handles: string[],
  kind: ConnectorKind = 'mcp',
  options: SeedOptions = {},
): Promise<{ token: string; connector: ConnectorRecord; agents: AgentRecord[] }> {
  const { token, connector } = await seedConnector(store, userId, { ...options, kind });
  const agents: AgentRecord[] = [];
  for (const handle of handles) {
    agents.push(
      await seedAgent(store, userId, {
        ...options,
        handle,
        kind,
        connectorId: connector.id,
        remoteRef: handle,
      }),
    );
  }
  return { token, connector, agents };
}

/** A live share of `agentId` (owned by `ownerId`) with `userId`, as role `user`: no invite, no template. */
export async function seedGrant(
  store: Store,
  grant: { agentId: string; ownerId: string; userId: string; sharedBy?: string },
  options: SeedOptions = {},
): Promise<GrantRecord> {
  return store.shares.createGrant({
    id: `grt_${grant.userId}`,
    agentId: grant.agentId,
    ownerId: grant.ownerId,
    userId: grant.userId,
    role: 'user',
    theme: {},
    firstMessage: null,
    template: null,
    inviteId: null,
    pushMuted: false,
    sort: 0,
    sharedBy: grant.sharedBy ?? 'Owner',
    grantedAt: stamp(options),
  });
}
