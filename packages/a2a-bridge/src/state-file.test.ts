// The state file: atomic owner-only writes, serialized updates, clear errors on a broken file.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFile } from './state-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-state-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('StateFile', () => {
  it('keeps per-agent headers in an owner-only file that a new reader sees', async () => {
    const path = join(dir, 'home', 'state.json');
    const state = new StateFile(path);
    expect(await state.agent('a1')).toEqual({});
    await state.update('a1', (s) => ({ ...s, headers: { Authorization: 'Bearer k' } }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'home'))).mode & 0o777).toBe(0o700);
    expect(await new StateFile(path).agent('a1')).toEqual({ headers: { Authorization: 'Bearer k' } });
    expect(await readdir(join(dir, 'home'))).toEqual(['state.json']);
  });

  it('serializes concurrent updates (none is lost)', async () => {
    const state = new StateFile(join(dir, 'state.json'));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        state.update(`a${i % 4}`, (s) => ({ ...s, cardUrl: `${s.cardUrl ?? ''}${i},` })),
      ),
    );
    const json = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    const all = Object.values(json.agents as Record<string, { cardUrl: string }>).flatMap((a) =>
      a.cardUrl.split(',').filter(Boolean),
    );
    expect(all.sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i)),
    );
  });

  it('refuses a broken or foreign file, saying what to do', async () => {
    await writeFile(join(dir, 'bad.json'), '{nope');
    await expect(new StateFile(join(dir, 'bad.json')).read()).rejects.toMatchObject({
      code: 'INVALID_STATE_FILE',
      message: expect.stringMatching(/move it away/),
    });
    await writeFile(join(dir, 'other.json'), '{"version":2}');
    await expect(new StateFile(join(dir, 'other.json')).read()).rejects.toMatchObject({
      code: 'INVALID_STATE_FILE',
    });
  });
});
