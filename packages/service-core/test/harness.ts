// Test harness: a real SQLite file in a temp dir with the core schema, plus seeded users and connections.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { hashSecret, mintToken, newId } from '../src/crypto.js';
import type { ConnectorKind } from '../src/records.js';
import type { Store } from '../src/repositories.js';
import { coreMigrations } from '../src/sqlite/migrations.js';
import type { SqliteDb } from '../src/sqlite/rows.js';
import { createSqliteStore } from '../src/sqlite/sqlite-store.js';

export interface Harness {
  dir: string;
  file: string;
  db: SqliteDb;
  store: Store;
  close(): void;
}

export function openHarness(): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-core-'));
  const file = path.join(dir, 'svc.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  for (const m of coreMigrations) db.exec(m.sql);
  return {
    dir,
    file,
    db,
    store: createSqliteStore(db),
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function seedUser(store: Store, email = `${newId()}@example.com`) {
  return store.users.create({
    id: newId('usr_'),
    email: email.toLowerCase(),
    passwordHash: 'not-a-real-hash',
    firstName: null,
    createdAt: Date.now(),
    suspendedAt: null,
  });
}

/** A connector with a fresh token, and agents bound to it (the first agent becomes the user's default). */
export async function seedConnection(
  store: Store,
  userId: string,
  handles: string[],
  kind: ConnectorKind = 'mcp',
) {
  const token = mintToken('svc_ct_');
  const connector = await store.connectors.create({
    id: newId('con_'),
    userId,
    name: 'test host',
    kind,
    tokenHash: hashSecret(token),
    createdAt: Date.now(),
    lastSeenAt: null,
    revokedAt: null,
    suspendedAt: null,
  });
  const agents = [];
  for (const handle of handles) {
    agents.push(
      await store.agents.create({
        id: newId('agt_'),
        userId,
        name: handle,
        handle,
        color: 'mint',
        kind,
        connectorId: connector.id,
        remoteRef: handle,
        createdAt: Date.now(),
      }),
    );
  }
  return { token, connector, agents };
}
