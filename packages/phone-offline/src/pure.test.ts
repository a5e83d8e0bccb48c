// The parts that need no browser: which refusals are final, which reads the device keeps, what the app says.
import { describe, expect, it } from 'vitest';
import { connectivity, noteNoNetwork, noteResponse, onConnectivity } from './connectivity.js';
import { DEVICE_CACHE, deviceCacheName, keptRead, OFFLINE_HEADER } from './device-cache.js';
import { isFinalRefusal, photoKey } from './outbox.js';

const API = '/functions/v1/svc-app';
const at = (path: string) => keptRead(new URL(`http://127.0.0.1:8080${path}`), API);

describe('phone offline', () => {
  it('keeps an answer for later unless the service refused it for good', () => {
    const refused = (status: number) => isFinalRefusal(Object.assign(new Error('x'), { status }));
    expect([400, 403, 404, 409, 410, 422].map(refused)).toEqual([true, true, true, true, true, true]);
    // Signed out for a moment, too many requests, the service failing, no answer at all: try again later.
    expect([401, 408, 429, 500, 502, 503].map(refused)).toEqual([false, false, false, false, false, false]);
    expect(isFinalRefusal(new TypeError('Failed to fetch'))).toBe(false);
    expect(isFinalRefusal(null)).toBe(false);
  });

  it("gives each photo of an answer its own upload key, keeping the key a screen's field tried (ADR 0287)", () => {
    const q = { key: '0b6f7c1e-2d1a-4c1e-9f1e-3a1b2c3d4e5f' };
    expect([0, 1].map((i) => photoKey(q, i))).toEqual([`${q.key}.p0`, `${q.key}.p1`]);
    expect(photoKey({ ...q, photoKeys: ['tried-in-the-field'] }, 0)).toBe('tried-in-the-field');
    // Keys the service accepts: 1 to 128 of A-Za-z0-9._:~- (a UUID and its place fit).
    expect(photoKey(q, 7)).toMatch(/^[A-Za-z0-9._:~-]{1,128}$/);
  });

  it('keeps the reads a thread needs offline and nothing else', () => {
    expect(at(`${API}/agents`)).toBe('read');
    expect(at(`${API}/agents/agt_1`)).toBe('read');
    expect(at(`${API}/agents/agt_1/messages?limit=50`)).toBe('read');
    expect(at(`${API}/agents/agt_1/messages?limit=50&before=90`)).toBe('read');
    expect(at(`${API}/app-config`)).toBe('read');
    expect(at(`${API}/photos/pho_1?exp=1&sig=x`)).toBe('photo');
    // The stream, settings, receipts and other services' paths are never kept.
    for (const path of [
      `${API}/stream`,
      `${API}/agents/agt_1/receipts`,
      `${API}/me`,
      '/functions/v1/svc-mcp',
    ]) {
      expect(at(path)).toBeNull();
    }
  });

  it('says offline with the newest kept read, and online again at the next live answer', () => {
    const seen: boolean[] = [];
    const stop = onConnectivity((s) => seen.push(s.online));
    const kept = (iso: string) => new Response('{}', { headers: { [OFFLINE_HEADER]: iso } });
    noteResponse(kept('2026-11-28T10:00:00.000Z'));
    noteResponse(kept('2026-11-28T09:00:00.000Z'));
    expect(connectivity()).toEqual({ online: false, syncedAt: Date.parse('2026-11-28T10:00:00.000Z') });
    noteNoNetwork();
    expect(connectivity().syncedAt).toBe(Date.parse('2026-11-28T10:00:00.000Z'));
    noteResponse(new Response('{}'));
    expect(connectivity()).toEqual({ online: true, syncedAt: null });
    stop();
    expect(seen).toEqual([false, true]);
  });

  it("names each person's cache of kept reads apart, without the user id in it", async () => {
    const a = await deviceCacheName('usr_alice');
    const b = await deviceCacheName('usr_bob');
    expect(a).toMatch(new RegExp(`^${DEVICE_CACHE}-[0-9a-f]{32}$`));
    expect(b).not.toBe(a);
    expect(await deviceCacheName('usr_alice')).toBe(a);
    expect(a).not.toContain('alice');
  });
});
