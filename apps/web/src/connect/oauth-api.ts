// The consent page's calls to `{oauth}/requests/<id>`: same origin, the browser-binding cookie goes along.
import { MOUNTS } from '@screen-service/registry/mounts';
import { ApiError } from '../shared/api-error.js';
import type { ConsentRequest } from '../shared/oauth-request.js';

export type { ConsentRequest };
export { ApiError };

export const OAUTH = MOUNTS.oauth;

function requestUrl(id: string, rest = ''): string {
  return `${OAUTH}/requests/${encodeURIComponent(id)}${rest}`;
}

/** Where the page goes once the request is decided: the server answers 302 to the client. */
export function finishUrl(id: string): string {
  return requestUrl(id, '/finish');
}

async function send(url: string, init: RequestInit = {}): Promise<ConsentRequest> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' }, ...init });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Screen Service could not be reached. Check your connection.');
  }
  const data = (await res.json().catch(() => ({}))) as Partial<ConsentRequest> & {
    error?: string;
    error_description?: string;
  };
  if (!res.ok)
    throw new ApiError(
      res.status,
      data.error ?? 'server_error',
      data.error_description ?? `Screen Service answered ${res.status}.`,
    );
  return data as ConsentRequest;
}

/** Reads the request; with `wait` the server holds the answer while it is pending (long poll, up to 25 s). */
export function readRequest(id: string, wait = 0, signal?: AbortSignal): Promise<ConsentRequest> {
  return send(requestUrl(id, wait > 0 ? `?wait=${wait}` : ''), signal ? { signal } : {});
}

/** Approves with a 6-digit pairing code from the person's app. */
export function enterCode(id: string, code: string): Promise<ConsentRequest> {
  return send(requestUrl(id, '/code'), {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
}

/** Cancels the sign-in: the client gets `error=access_denied`. */
export function cancelRequest(id: string): Promise<ConsentRequest> {
  // JSON, not a bare form post: a same-site page cannot send this without the browser asking first.
  return send(requestUrl(id, '/cancel'), {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: '{}',
  });
}
