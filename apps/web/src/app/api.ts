// The person's API client: tokens in localStorage, one refresh on 401, errors with the server's message.

import type { SessionTokens as Session } from '@screen-service/person-api';

export type { ManagementTokenView as ManagementToken } from '@screen-service/management-tokens';

import { noteNoNetwork, noteResponse, rememberToken } from '@screen-service/phone-offline';
import { MOUNTS } from '@screen-service/registry/mounts';
import { ApiError } from '../shared/api-error.js';

export { ApiError };

export const API = MOUNTS.app;
/** doc2's management API (`{agents_url}`); the app calls it with its access token. */
export const AGENTS_API = MOUNTS.agents;
const TOKENS = 'svc-app-session';

/** The wire types are the person's API's own (type-only: nothing of the package reaches the bundle). */
export type {
  AgentListItem as Agent,
  Connection,
  Message,
  SessionTokens as Session,
} from '@screen-service/person-api';

export function session(): Session | null {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) ?? 'null') as Session | null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) localStorage.setItem(TOKENS, JSON.stringify(s));
  else localStorage.removeItem(TOKENS);
  // The service worker sends kept answers with it (Background Sync); sign-out deletes it with the rest. Kept
  // with its person: until the device is claimed for them, the worker sends no one's answers with it.
  if (s) void rememberToken(s.access_token, s.user.id).catch(() => {});
}

let refreshing: Promise<boolean> | undefined;

async function refresh(): Promise<boolean> {
  const s = session();
  if (!s) return false;
  refreshing ??= fetch(`${API}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: s.refresh_token }),
  })
    .then(async (res) => {
      if (!res.ok) {
        saveSession(null);
        return false;
      }
      saveSession((await res.json()) as Session);
      return true;
    })
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

/** Calls the API; JSON in and out, a raw body for photos. Throws ApiError with the server's message. */
export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  raw?: Blob,
  extra?: Record<string, string>,
): Promise<T> {
  return request<T>(`${API}${path}`, method, body, raw, extra);
}

/**
 * One action of the management API (`POST {agents_url}` with `{action, ...fields}`), as the app: token
 * actions (`token_create`, `token_list`, `token_revoke`) are the app's alone.
 */
export async function manage<T>(action: string, fields: Record<string, unknown> = {}): Promise<T> {
  return request<T>(AGENTS_API, 'POST', { ...fields, action });
}

async function request<T>(
  url: string,
  method: string,
  body?: unknown,
  raw?: Blob,
  extra?: Record<string, string>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = { ...extra };
    const token = session()?.access_token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (raw) headers['content-type'] = raw.type || 'application/octet-stream';
    else if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers,
      ...(raw ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
    }).catch((error: unknown) => {
      noteNoNetwork();
      throw error;
    });
    // A read the service worker answered from this device says so: the app shows it is offline.
    noteResponse(res);
    if (res.status === 401 && attempt === 0 && token && (await refresh())) continue;
    if (res.status === 204) return undefined as T;
    const data = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
    if (!res.ok)
      throw new ApiError(
        res.status,
        data.error ?? 'error',
        data.message ?? `The server answered ${res.status}.`,
      );
    return data as T;
  }
}

/** Opens the live stream of the person's threads; reconnects with a fresh token when it drops. */
export function openStream(onEvent: (type: string, data: Record<string, unknown>) => void): () => void {
  let source: EventSource | undefined;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    const token = session()?.access_token;
    if (!token || stopped) return;
    source = new EventSource(`${API}/stream?access_token=${encodeURIComponent(token)}`);
    for (const type of ['message', 'agents', 'read', 'working', 'tables']) {
      source.addEventListener(type, (e) => onEvent(type, JSON.parse((e as MessageEvent<string>).data)));
    }
    // Events may have been lost between the service's instances: every view reloads its lists, and the
    // open thread its newest rows.
    source.addEventListener('resync', () => {
      onEvent('agents', {});
      onEvent('resync', {});
    });
    source.onerror = () => {
      source?.close();
      if (stopped) return;
      retry = setTimeout(async () => {
        // Offline the refresh fails too: the stream keeps trying, it never stops for good.
        await refresh().catch(() => false);
        connect();
      }, 1000);
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}

/** The service's settings for the app (`GET /app-config`). */
export interface AppConfig {
  /** The image-generation CDN template with `{prompt}` (SVC_IMAGE_CDN, ADR 0111), or null. */
  image_cdn: string | null;
}

let config: Promise<AppConfig> | undefined;

/** Reads the app settings once per page load; a failed read is tried again by the next view. */
export function appConfig(): Promise<AppConfig> {
  config ??= call<AppConfig>('GET', '/app-config').catch(() => {
    config = undefined;
    return { image_cdn: null };
  });
  return config;
}

/** `image prompt=` drawn from the CDN, as the in-chat view does; undefined draws the placeholder. */
export function promptImages(c: AppConfig): ((prompt: string) => string) | undefined {
  const template = c.image_cdn;
  return template ? (prompt) => template.replaceAll('{prompt}', encodeURIComponent(prompt)) : undefined;
}
