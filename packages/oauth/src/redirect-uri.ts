// Redirect URI rules (doc1): https; http only for loopback hosts; or an app's own scheme. No fragments.
import { OAuthError } from './errors.js';

/** Schemes that are never a client's callback: they run code, read files or leave the browser. */
const REFUSED_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
  'ftp:',
  'ws:',
  'wss:',
  'mailto:',
  'tel:',
  'sms:',
  // Browser-internal pages, archives and extensions: never an app's callback, sometimes a way out of one.
  'view-source:',
  'chrome:',
  'chrome-extension:',
  'chrome-untrusted:',
  'edge:',
  'brave:',
  'opera:',
  'moz-extension:',
  'resource:',
  'jar:',
  'intent:',
]);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `http://localhost`, `http://127.0.0.1` and `http://[::1]` (any port). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Checks one redirect URI for registration; returns it unchanged or throws `invalid_redirect_uri` naming
 * the rule it broke.
 *
 * @example
 * ```ts
 * checkRedirectUri('http://127.0.0.1:8765/callback'); // ok: loopback
 * checkRedirectUri('http://example.com/cb');          // throws: http only for loopback hosts
 * ```
 */
export function checkRedirectUri(value: unknown): string {
  const bad = (why: string) => new OAuthError('invalid_redirect_uri', `redirect_uris: ${why}`);
  if (typeof value !== 'string' || value.length === 0) throw bad('each entry must be a URI string.');
  if (value.length > 2000) throw bad('a URI may be at most 2000 characters.');
  if (value.includes('#')) throw bad(`"${value}" has a fragment (#); remove it.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(`"${value}" is not an absolute URI; give scheme and path, e.g. https://app.example/callback.`);
  }
  if (url.username || url.password) throw bad(`"${value}" carries credentials; remove them.`);
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:') {
    if (isLoopbackHttp(url)) return value;
    throw bad(`"${value}" uses http on a non-loopback host; use https, or http://127.0.0.1 for a local app.`);
  }
  if (REFUSED_SCHEMES.has(url.protocol)) throw bad(`the scheme "${url.protocol}" cannot be a callback.`);
  // An app's own scheme (RFC 8252 private-use, e.g. com.example.app:/cb or cursor://anysphere/cb).
  return value;
}

/**
 * Whether a redirect URI sent to `/authorize` matches a registered one: exactly, except that loopback
 * http URIs match on any port (RFC 8252 section 7.3: native apps pick a free port at run time).
 */
export function redirectUriMatches(registered: string, given: string): boolean {
  if (registered === given) return true;
  let r: URL;
  let g: URL;
  try {
    r = new URL(registered);
    g = new URL(given);
  } catch {
    return false;
  }
  if (!isLoopbackHttp(r) || !isLoopbackHttp(g) || given.includes('#')) return false;
  // The same rules as registration: no credentials smuggled in (http://user@127.0.0.1/...).
  if (g.username || g.password) return false;
  return r.hostname === g.hostname && r.pathname === g.pathname && r.search === g.search;
}

/** `uri` with the given parameters added to its query (existing ones kept). */
export function withQuery(uri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return url.href;
}
