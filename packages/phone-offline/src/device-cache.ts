// The service worker's side: the person's reads (agent list, thread pages, photos seen) kept on the device and
// answered from it when the network does not answer, marked so the app can say it is offline (ADR 0277).

/** The Cache Storage cache of the person's reads; sign-out deletes it. */
export const DEVICE_CACHE = 'svc-device-v1';
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
async function keep(url: string, res: Response, stamp: boolean): Promise<void> {
  try {
    const headers = new Headers(res.headers);
    if (stamp) headers.set(SYNCED_HEADER, new Date().toISOString());
    const copy = new Response(await res.blob(), { status: res.status, headers });
    await (await caches.open(DEVICE_CACHE)).put(url, copy);
  } catch {
    // Quota exceeded, or the cache was deleted meanwhile (sign-out): nothing kept.
  }
}

/** Network first; the answer is kept (stamped with the time) for when there is no network. */
export async function readThrough(request: Request): Promise<Response> {
  try {
    const res = await fetch(request);
    if (res.ok) await keep(request.url, res.clone(), true);
    return res;
  } catch (error) {
    const hit = await (await caches.open(DEVICE_CACHE)).match(request.url, { ignoreVary: true });
    if (!hit) throw error;
    const headers = new Headers(hit.headers);
    headers.set(OFFLINE_HEADER, hit.headers.get(SYNCED_HEADER) ?? '');
    return new Response(hit.body, { status: hit.status, headers });
  }
}

/** A photo the person has seen: from the device when kept, else fetched and kept. */
export async function keptPhoto(request: Request): Promise<Response> {
  const cache = await caches.open(DEVICE_CACHE);
  const hit = await cache.match(request.url, { ignoreVary: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await keep(request.url, res.clone(), false);
  return res;
}
