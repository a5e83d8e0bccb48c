// PostgreSQL store behaviour beyond the shared suite: photo bytes in the database through
// the real core on two instances, account deletion leaving zero rows, relay records, numbers and schema guards.
import { createCore } from '@screen-service/core';
import { hashSecret, newId } from '@screen-service/registry/kernel';
import { fastHasher, seedConnection } from '@screen-service/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createPostgresPhotoFiles,
  openPostgresStore,
  POSTGRES_USER_TABLES,
  type PostgresStore,
} from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { emptyAllTables } from './empty-tables.js';
import { seedAgent, seedUser } from './seed.js';

let db: TestDatabase;
let a: PostgresStore;
let b: PostgresStore;

beforeAll(async () => {
  db = await createTestDatabase();
  a = await openPostgresStore({ url: db.url });
  b = await openPostgresStore({ url: db.url, migrate: false });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});
beforeEach(() => emptyAllTables(a.pool));

const count = async (table: string, where = 'TRUE', values: unknown[] = []) =>
  Number((await a.pool.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, values)).rows[0].n);

// A tiny PNG: the signature and an IHDR chunk's start are all the upload check reads.
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3,
]);
const coreOn = (store: PostgresStore) =>
  createCore({
    store,
    hasher: fastHasher,
    secret: new TextEncoder().encode('test-secret-test-secret-test-secret'),
    urls: 'http://127.0.0.1',
    photoFiles: createPostgresPhotoFiles({ pool: store.pool }),
  });
const readAll = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return Buffer.concat(parts);
};

describe('photo bytes in PostgreSQL', () => {
  it('a photo uploaded through instance A opens on instance B; deleting the agent on B removes the bytes', async () => {
    const coreA = coreOn(a);
    const coreB = coreOn(b);
    try {
      const user = await seedUser(a);
      const agent = await seedAgent(a, user.id);
      const { id, url } = await coreA.photos.upload(user.id, agent.id, {
        contentType: 'image/png',
        bytes: PNG,
      });
      const link = new URL(url);
      const opened = await coreB.photos.open(id, link.searchParams.get('exp'), link.searchParams.get('sig'));
      expect(opened).toMatchObject({ contentType: 'image/png', bytes: PNG.length });
      expect(new Uint8Array(await readAll(opened.body))).toEqual(PNG);
      expect(await count('photo_files')).toBe(1);
      await coreB.deleteAgent(user.id, agent.id);
      expect([await count('photos'), await count('photo_files'), await count('photo_removals')]).toEqual([
        0, 0, 0,
      ]);
    } finally {
      coreA.stopping.abort();
      coreB.stopping.abort();
    }
  });

  it('refuses a second write of a name, streams an error for a missing one, sweeps orphaned bytes', async () => {
    const files = createPostgresPhotoFiles({ pool: a.pool, now: () => 10 });
    await files.write('orphan.png', PNG);
    await expect(files.write('orphan.png', PNG)).rejects.toThrow(/duplicate key/);
    await expect(readAll(files.read('missing.png'))).rejects.toThrow(/missing.png is not stored/);
    // Bytes written but never recorded (a crash between the two writes) go with the unattached sweep.
    expect(await a.housekeeping.deleteUnattachedPhotos(5)).toBe(0);
    expect(await count('photo_files')).toBe(1);
    await a.housekeeping.deleteUnattachedPhotos(11);
    expect(await count('photo_files')).toBe(0);
    await files.remove('orphan.png'); // a missing file counts as removed
  });
});

describe('relay tables through the core on PostgreSQL', () => {
  it('a tables call writes, reads, hands over and takes away tables; a second instance sees them', async () => {
    const core = coreOn(a);
    const other = coreOn(b);
    try {
      const u = await seedUser(a);
      const { token, agents } = await seedConnection(a, u.id, ['coach', 'nurse']);
      const principal = await core.connectionAuth.verify(token);
      const answer = (await core.tables.call(principal, {
        agent: agents[0]!.id,
        lines:
          'table create Weights Day:date Kg:number:kg\nput Weights Day=2026-11-20 Kg=72.5\nquery Weights',
      })) as { ok: unknown[]; failed: unknown[]; results: { rows: unknown[][] }[] };
      expect(answer.failed).toEqual([]);
      expect(answer.ok).toHaveLength(2);
      expect(answer.results[0]!.rows).toEqual([['2026-11-20', 72.5]]);
      const listed = await other.tables.list(u.id);
      expect(listed.map((t) => [t.name, t.rows, t.agent?.id])).toEqual([['Weights', 1, agents[0]!.id]]);
      await other.tables.give(u.id, { table: 'Weights', from: agents[0]!.id, to: agents[1]!.id });
      expect((await core.tables.list(u.id)).map((t) => [t.name, t.agent?.id])).toEqual([
        ['Weights', agents[1]!.id],
      ]);
      await core.tables.takeAway(u.id, { table: 'Weights', from: agents[1]!.id });
      const unheld = await other.tables.list(u.id);
      expect(unheld.map((t) => [t.name, t.rows, t.agent, t.expires_at !== null])).toEqual([
        ['Weights', 1, null, true],
      ]);
      await core.tables.remove(u.id, { table: 'Weights', from: unheld[0]!.holder });
      expect(await other.tables.list(u.id)).toEqual([]);
      expect(await a.relay.listMeta(u.id)).toEqual([]);
    } finally {
      core.stopping.abort();
      other.stopping.abort();
    }
  });
});

describe('PostgreSQL store records', () => {
  it("deleting an account leaves none of the user's rows in any table", async () => {
    const u = await seedUser(a);
    const other = await seedUser(a);
    const ag = await seedAgent(a, u.id);
    const con = {
      id: newId('con_'),
      userId: u.id,
      name: 'h',
      kind: 'mcp' as const,
      tokenHash: hashSecret(newId()),
      createdAt: 1,
      lastSeenAt: 1,
      revokedAt: null,
      suspendedAt: null,
    };
    await a.connectors.create(con);
    const key = { agentId: ag.id, userId: u.id };
    const m = await a.threads.appendScreen(
      {
        id: newId('msg_'),
        ...key,
        sender: 'agent',
        kind: 'screen',
        body: 'Hi',
        createdAt: 1,
        connectorId: con.id,
      },
      { id: newId('scr_'), lines: 'Hi', ops: [], taps: [] },
      1,
    );
    await a.threads.markRead(key, m.message.seq, 2);
    await a.threads.setWorking(key, 5, 3);
    await a.photos.create({
      id: 'ph1',
      userId: u.id,
      agentId: ag.id,
      messageId: null,
      file: 'f.png',
      contentType: 'image/png',
      bytes: 3,
      createdAt: 1,
    });
    await a.sessions.create({
      id: 's',
      userId: u.id,
      familyId: 'f',
      refreshHash: 'h',
      createdAt: 1,
      expiresAt: 2,
      usedAt: null,
      revokedAt: null,
    });
    await a.managementTokens.create({
      id: 'mt',
      userId: u.id,
      name: 'n',
      tokenHash: 'th',
      scope: 'agents:manage',
      createdAt: 1,
      lastUsedAt: null,
      revokedAt: null,
    });
    await a.relay.markRead(u.id, ag.id, ['Weights'], 3);
    await a.relay.addHandover(ag.id, u.id, 'Weights(1 rows: Date)');
    const ref = { owner: u.id, holder: ag.id, name: 'Weights' };
    await a.relay.tables.defineTable(ref, [{ name: 'Date', type: 'date' }]);
    await a.relay.tables.insertRow(ref, undefined, { Date: '2026-11-20' });
    await a.relay.tables.addPending({
      ...ref,
      kind: 'row',
      table: 'Weights',
      key: 'r1',
      line: 'put Weights r1 +delete',
    });
    await a.nativeAgents.save({
      agentId: ag.id,
      userId: u.id,
      template: null,
      instructions: 'be kind',
      createdAt: 1,
      updatedAt: 1,
    });
    await a.push.setPresence(key, 'phone', 10);
    const before = await Promise.all(POSTGRES_USER_TABLES.map((t) => count(t, 'TRUE')));
    expect(before.filter((n) => n > 0).length).toBeGreaterThan(10);
    expect(await b.users.delete(u.id)).toBe(true);
    for (const table of POSTGRES_USER_TABLES) {
      const column = table === 'users' ? 'id' : 'user_id';
      expect([table, await count(table, `${column} = $1`, [u.id])]).toEqual([table, 0]);
    }
    // The tables engine's rows are keyed by owner (the tables work for any owner id): a trigger removes them.
    for (const table of ['te_tables', 'te_pending']) {
      expect([table, await count(table, 'owner = $1', [u.id])]).toEqual([table, 0]);
    }
    expect(await count('te_rows')).toBe(0);
    expect(await a.users.findById(other.id)).not.toBeNull();
    expect(await count('photo_removals')).toBe(1);
  });

  it('BIGINT times, seqs and counts come back as JS numbers', async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id);
    const at = Date.now();
    const m = await a.threads.append(
      {
        id: newId('msg_'),
        userId: u.id,
        agentId: ag.id,
        sender: 'person',
        kind: 'text',
        body: 'x',
        meta: { n: 1 },
        createdAt: at,
      },
      1,
    );
    expect(typeof m.seq).toBe('number');
    expect(m).toMatchObject({ createdAt: at, meta: { n: 1 }, handledAt: null });
    const [got] = await b.threads.page({ agentId: ag.id, userId: u.id, limit: 1 });
    expect(got).toEqual(m);
    expect((await b.threads.unreadByAgent(u.id)).size).toBe(0);
    expect(await b.threads.countUnhandled({ agentId: ag.id, userId: u.id })).toBe(1);
    expect(await b.photos.bytesOf(u.id)).toBe(0);
  });

  it('relay records: reads, hand-over parts taken once, unheld list', async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id);
    await a.relay.markRead(u.id, ag.id, ['A', 'B'], 5);
    await a.relay.markRead(u.id, ag.id, ['A'], 6);
    expect((await b.relay.listMeta(u.id)).map((m) => [m.name, m.lastReadAt])).toEqual([
      ['A', 6],
      ['B', 5],
    ]);
    await a.relay.addHandover(ag.id, u.id, 'one');
    await b.relay.addHandover(ag.id, u.id, 'two');
    const taken = await Promise.all([a.relay.takeHandover(ag.id), b.relay.takeHandover(ag.id)]);
    expect(taken.sort()).toEqual(['', 'one two']);
    await a.relay.setReadsInRow(ag.id, u.id, 3);
    expect(await b.relay.readsInRow(ag.id)).toBe(3);
    expect(await a.relay.drop({ userId: u.id, holder: ag.id, name: 'A' })).toBe(false);
    expect((await a.relay.listMeta(u.id)).map((m) => m.name)).toEqual(['B']);
    expect(await a.relay.tables.listTables(u.id)).toEqual([]);
  });

  it('schema guards: name length, theme size', async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id, 'a');
    await expect(
      a.agents.create({
        id: 'x',
        userId: u.id,
        name: '',
        handle: 'x',
        color: 'mint',
        kind: 'mcp',
        isDefault: false,
        sort: 1,
        createdAt: 1,
      }),
    ).rejects.toThrow(/check constraint/);
    await expect(a.agents.update(ag.id, { theme: { accent: 'x'.repeat(2100) } }, 1)).rejects.toThrow(
      /check constraint/,
    );
    expect(await a.agents.update(ag.id, { pushMuted: true, name: 'A2' }, 9)).toMatchObject({
      pushMuted: true,
      name: 'A2',
      updatedAt: 9,
    });
  });

  it('housekeeping: trims threads to the newest rows but keeps unanswered person rows', async () => {
    const u = await seedUser(a);
    const ag = await seedAgent(a, u.id);
    const key = { agentId: ag.id, userId: u.id };
    const write = (sender: 'agent' | 'person', body: string) =>
      a.threads.append({ id: newId('msg_'), ...key, sender, kind: 'text', body, createdAt: 1 }, 1);
    await write('person', 'old-unanswered');
    for (const body of ['1', '2', '3', '4']) await write('agent', body);
    expect(await b.housekeeping.trimThreads(2, 2)).toBe(2);
    expect((await a.threads.page({ ...key, limit: 10 })).map((m) => m.body)).toEqual([
      '4',
      '3',
      'old-unanswered',
    ]);
  });
});
