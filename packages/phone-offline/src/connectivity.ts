// Whether the app's last request reached the service, and when the device last heard from it (ADR 0277).
import { OFFLINE_HEADER } from './device-cache.js';

/** What the app shows about the network. */
export interface Connectivity {
  online: boolean;
  /** When the newest read the device keeps came from the service (ms), when offline and known. */
  syncedAt: number | null;
}

let state: Connectivity = { online: true, syncedAt: null };
const listeners = new Set<(s: Connectivity) => void>();

function set(next: Connectivity): void {
  if (next.online === state.online && next.syncedAt === state.syncedAt) return;
  state = next;
  for (const l of listeners) l(state);
}

/** Notes an answer of the service: a live one means online; one the device kept means offline. */
export function noteResponse(res: Response): void {
  const since = res.headers.get(OFFLINE_HEADER);
  if (since === null) {
    set({ online: true, syncedAt: null });
    return;
  }
  const at = Date.parse(since);
  // Reads kept at different times: the newest of them says when the device last heard from the service.
  const before = state.online ? null : state.syncedAt;
  const known = Number.isNaN(at) ? before : Math.max(at, before ?? 0);
  set({ online: false, syncedAt: known });
}

/** Notes a request the network did not carry. */
export function noteNoNetwork(): void {
  set({ online: false, syncedAt: state.online ? null : state.syncedAt });
}

/** The state now. */
export function connectivity(): Connectivity {
  return state;
}

/** Calls `listener` on each change; returns the way to stop. */
export function onConnectivity(listener: (s: Connectivity) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
