// One conformance suite for every ServiceLink implementation we own (memory and file).
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileServiceLink, MemoryServiceLink, type OutboundPost } from './service-link.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const post = (id: string, kind: OutboundPost['kind'], turn: string[]): OutboundPost => ({
  id,
  agentId: 'a1',
  kind,
  text: id,
  meta: { turn },
});

describe.each([
  ['MemoryServiceLink', async () => new MemoryServiceLink()],
  [
    'FileServiceLink',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'a2a-link-'));
      dirs.push(dir);
      return new FileServiceLink(join(dir, 'link.json'));
    },
  ],
] as const)('%s', (_name, make) => {
  it('lists unhandled rows per agent, oldest first; delivered rows stay pending until answered', async () => {
    const link = await make();
    await link.addRow('a1', { id: 'r1', text: 'one' });
    await link.addRow('a2', { id: 'x1', text: 'other agent' });
    await link.addRow('a1', { id: 'r2', text: 'two' });
    await link.markDelivered('a1', ['r1', 'r2']);
    expect(await link.isDelivered('r1')).toBe(true);
    expect((await link.pendingRows('a1')).map((r) => r.id)).toEqual(['r1', 'r2']);
    await link.post(post('w', 'working', ['r1', 'r2']));
    expect((await link.pendingRows('a1')).map((r) => r.id)).toEqual(['r1', 'r2']);
    await link.post(post('ans', 'answer', ['r1', 'r2']));
    expect(await link.pendingRows('a1')).toEqual([]);
    expect((await link.pendingRows('a2')).map((r) => r.id)).toEqual(['x1']);
  });

  it('posting the same id twice has the effect of posting it once', async () => {
    const link = await make();
    await link.post(post('p1', 'status', ['r1']));
    await link.post({ ...post('p1', 'status', ['r1']), text: 'again' });
    expect((await link.posts('a1')).map((p) => p.text)).toEqual(['p1']);
  });
});

describe('FileServiceLink', () => {
  it('keeps its file owner-only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-link-'));
    dirs.push(dir);
    const link = new FileServiceLink(join(dir, 'sub', 'link.json'));
    await link.addRow('a1', { id: 'r1' });
    expect((await stat(join(dir, 'sub', 'link.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'sub'))).mode & 0o777).toBe(0o700);
  });
});
