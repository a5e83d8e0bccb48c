// The outbox: atomic owner-only entries keyed by post id, flushed in order, kept on failure.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from './outbox.js';
import { MemoryServiceLink, type OutboundPost } from './service-link.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-outbox-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const post = (id: string): OutboundPost => ({
  id,
  agentId: 'a1',
  kind: 'answer',
  text: id,
  meta: { turn: [id] },
});

class FlakyLink extends MemoryServiceLink {
  failures = 1;
  override async post(p: OutboundPost): Promise<void> {
    if (this.failures-- > 0) throw new Error('service down');
    return super.post(p);
  }
}

describe('Outbox', () => {
  it('one owner-only file per post id; the same id twice is one entry; no temp files left', async () => {
    const outbox = new Outbox(join(dir, 'outbox'));
    await outbox.put(post('a'));
    await outbox.put(post('a'));
    await outbox.put(post('b'));
    const files = await readdir(join(dir, 'outbox'));
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.json'))).toBe(true);
    expect((await stat(join(dir, 'outbox', files[0]!))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'outbox'))).mode & 0o777).toBe(0o700);
    expect((await outbox.list()).map((p) => p.id)).toEqual(['a', 'b']);
  });

  it('a failed flush keeps everything queued; the next flush posts each once, in order', async () => {
    const outbox = new Outbox(join(dir, 'outbox'));
    const link = new FlakyLink();
    await outbox.put(post('a'));
    await outbox.put(post('b'));
    await expect(outbox.flush(link)).rejects.toThrow('service down');
    expect(await outbox.list()).toHaveLength(2);
    expect(await outbox.flush(link)).toBe(2);
    expect((await link.posts('a1')).map((p) => p.id)).toEqual(['a', 'b']);
    expect(await outbox.list()).toEqual([]);
  });

  it('names a broken entry and what to do', async () => {
    const outbox = new Outbox(join(dir, 'outbox'));
    await outbox.put(post('a'));
    await writeFile(join(dir, 'outbox', 'broken.json'), '{');
    await expect(outbox.list()).rejects.toMatchObject({
      code: 'INVALID_OUTBOX_ENTRY',
      message: expect.stringMatching(/broken\.json.*move it away/),
    });
  });
});
