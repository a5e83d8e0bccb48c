// A photo upload sent again with its idempotency key is stored once (issue 45, ADR 0287): one after the other,
// at the same time; another image or thread under a used key is refused. Runs on SQLite and on PostgreSQL.
import fs from 'node:fs';
import { createTestCore, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Two different 1x1 PNGs (a pixel of another colour: other bytes, the same size). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const OTHER = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGM4wcX1HwAEVgHcUdaN+AAAAABJRU5ErkJggg==',
  'base64',
);

let core: TestCore;
let userId: string;
let agentId: string;
let otherAgent: string;

beforeEach(async () => {
  core = createTestCore({ seed: 287 });
  userId = (await seedUser(core.store)).id;
  agentId = (await core.agents.create(userId, { name: 'Cook' })).agent.id;
  otherAgent = (await core.agents.create(userId, { name: 'Gardener' })).agent.id;
});
afterEach(() => core.close());

const upload = (bytes: Buffer, idempotencyKey?: unknown, agent = agentId) =>
  core.photos.upload(userId, agent, { contentType: 'image/png', bytes, idempotencyKey });
const rows = async () => (await core.store.photos.listByUser(userId)).length;
const files = () => (fs.existsSync(core.photoDir) ? fs.readdirSync(core.photoDir).length : 0);

describe('photo upload keys', () => {
  it('an upload sent again with its key answers the first photo and stores nothing new', async () => {
    const first = await upload(PNG, 'pho-key-1');
    core.advance(1000);
    const again = await upload(PNG, 'pho-key-1');
    expect(again.id).toBe(first.id);
    expect(await rows()).toBe(1);
    expect(files()).toBe(1);
    expect(await core.store.photos.findByKey(userId, 'pho-key-1')).toMatchObject({ id: first.id });
    // Without a key each upload is a new photo, as before.
    await upload(PNG);
    await upload(PNG);
    expect(await rows()).toBe(3);
  });

  it('three sends of one key at once: one photo, and each answers it', async () => {
    const sent = await Promise.all([1, 2, 3].map(() => upload(PNG, 'at-once')));
    expect(new Set(sent.map((s) => s.id)).size).toBe(1);
    expect(await rows()).toBe(1);
    expect(files()).toBe(1);
  });

  it('a used key with another image or another thread is CONFLICT naming the key; a bad key is named', async () => {
    await upload(PNG, 'used');
    await expect(upload(OTHER, 'used')).rejects.toMatchObject({
      code: 'CONFLICT',
      field: 'idempotency-key',
      message: expect.stringContaining('"used"'),
    });
    await expect(upload(PNG, 'used', otherAgent)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await rows()).toBe(1);
    expect(files()).toBe(1);
    for (const bad of ['', 'has space', 'x'.repeat(129), 42, ['a', 'b']]) {
      await expect(upload(PNG, bad)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'idempotency-key',
      });
    }
    // Another person's key is theirs.
    const other = (await seedUser(core.store)).id;
    const theirs = (await core.agents.create(other, { name: 'Coach' })).agent.id;
    await expect(
      core.photos.upload(other, theirs, { contentType: 'image/png', bytes: PNG, idempotencyKey: 'used' }),
    ).resolves.toMatchObject({ id: expect.stringMatching(/^pho_/) });
  });
});
