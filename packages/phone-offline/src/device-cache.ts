// The service worker's side: the person's reads (agent list, thread pages, photos seen) kept on the device and
// answered from it when the network does not answer, marked so the app can say it is offline (ADR 0277).

import { deviceOwner } from './device-db.js';

/**
 * The prefix of the Cache Storage caches of people's reads: each person's is `svc-device-v1-<hash of the
 * user id>` (ADR 0278, amended); sign-out and a change of person delete them all.
 */
export const DEVICE_CACHE = 'svc-device-v1';

/** The cache name of one person's kept reads: the prefix and the first 128 bits of SHA-256 of the user id. */
export async function deviceCacheName(userId: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(userId));
  const hex = [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${DEVICE_CACHE}-${hex}`;
}

/**
 * The cache of the person the device belongs to, or null when no one claimed it (signed out, or a person's
 * sign-in not yet claimed): then nothing is kept and nothing kept is answered.
 */
async function ownCache(): Promise<Cache | null> {
  const owner = await deviceOwner().catch(() => null);
  return owner === null ? null : caches.open(await deviceCacheName(owner));
}
/** Set on a read answered from the device: when the service sent it (ISO time). */
export const OFFLINE_HEADER = 'x-svc-offline-since';
const SYNCED_HEADER = 'x-svc-synced-at';

/**
 * Which GETs of the person's API (mounted at `api`) the device keeps: `read` (the agent list, an agent, the
 * app settings, any page of a thread: fresh from the network, the kept copy without it) and `photo` (a
 * photo's signed link: the same link always names the same bytes, so the kept copy is used first).
 */
export function keptRead(url: URL, api: string): 'read' | 'photo' | null {
  const at = url.pathname.indexOf(`${api}/`);
  if (at < 0) return null;
  const path = url.pathname.slice(at + api.length);
  if (/^\/photos\/[^/]+$/.test(path)) return 'photo';
  if (path === '/agents' || path === '/app-config' || /^\/agents\/[^/]+(\/messages)?$/.test(path)) {
    return 'read';
  }
  return null;
}

/**
 * Keeps a copy; a device that cannot (its storage is full) still answers from the network: the read goes on,
 * only the offline copy is missed.
 */
async function keep(cache: Cache | null, url: string, res: Response, stamp: boolean): Promise<void> {
  if (!cache) return;
  try {
    const headers = new Headers(res.headers);
    if (stamp) headers.set(SYNCED_HEADER, new Date().toISOString());
    const copy = new Response(await res.blob(), { status: res.status, headers });
    await cache.put(url, copy);
  } catch {
    // Quota exceeded, or the cache was deleted meanwhile (sign-out): nothing kept.
  }
}

/** Network first; the answer is kept (stamped with the time) for when there is no network. */
export async function readThrough(request: Request): Promise<Response> {
  // Whose cache is read when the answer comes: a read made before a change of person is never kept for
  // the next one.
  const cache = await ownCache();
  try {
    const res = await fetch(request);
    if (res.ok) await keep(cache, request.url, res.clone(), true);
    return res;
  } catch (error) {
    const hit = await cache?.match(request.url, { ignoreVary: true });
    if (!hit) throw error;
    const headers = new Headers(hit.headers);
    headers.set(OFFLINE_HEADER, hit.headers.get(SYNCED_HEADER) ?? '');
    return new Response(hit.body, { status: hit.status, headers });
  }
}

/** A photo the person has seen: from the device when kept, else fetched and kept. */
export async function keptPhoto(request: Request): Promise<Response> {
  const cache = await ownCache();
  const hit = await cache?.match(request.url, { ignoreVary: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await keep(cache, request.url, res.clone(), false);
  return res;
}
