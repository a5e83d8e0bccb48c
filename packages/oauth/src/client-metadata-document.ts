// Client ID Metadata Documents: a client_id that is an https URL names a JSON document describing the client,
// fetched through the outbound guard (public addresses only, size and time limits) and cached per its headers.
import http from 'node:http';
import https from 'node:https';
import {
  createOutboundGuard,
  OutboundRefusedError,
  type OutboundTarget,
  pinnedLookup,
  type Resolver,
} from '@screen-service/io-kit/outbound';
import { systemClock } from '@screen-service/registry/kernel';
import { OAuthError } from './errors.js';
import { readClientMetadata } from './registration.js';

/** A client described by its metadata document; the client_id is the document's URL. */
export interface ClientMetadataDocument {
  clientId: string;
  /** The document's `client_name` (or the host when it names none). */
  name: string;
  /** The host the document was fetched from: the client's identity the person sees. */
  host: string;
  redirectUris: string[];
  /** `client_uri`, `logo_uri`, ... as the document gives them. */
  extra: Record<string, unknown>;
}

export interface ClientMetadataDocumentOptions {
  /** Largest document read, in bytes; default 5 KiB. */
  maxBytes?: number;
  /** Time for the whole fetch; default 5 s. */
  timeoutMs?: number;
  /** Longest a document is cached whatever its headers say; default 24 h. */
  maxCacheMs?: number;
  /** Cache time of a document whose headers name none; default 5 minutes. */
  defaultCacheMs?: number;
  /** Test setting only: documents on loopback addresses (and plain http to them). Default false. */
  allowLoopback?: boolean;
  /** DNS for the outbound guard (tests); default the system resolver. */
  resolve?: Resolver;
  now?: () => number;
}

/** True when `clientId` is a URL (a metadata document's address) rather than a registered id. */
export function isClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

// Shown to the person at /authorize (never redirected: the redirect URI is not trusted yet), so 400.
const refused = (clientId: string, why: string) =>
  new OAuthError('invalid_client', `client_id ${clientId.slice(0, 200)}: ${why}`, { status: 400 });

/** The URL rules of a client ID metadata document address; returns the parsed URL. */
function checkClientIdUrl(clientId: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw refused(clientId, 'is not a URL.');
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) {
    throw refused(clientId, 'a client ID metadata document must be served over https.');
  }
  if (url.username || url.password) throw refused(clientId, 'must not carry a user name or password.');
  if (clientId.includes('#')) throw refused(clientId, 'must not have a fragment (#).');
  if (url.pathname === '/' || url.pathname === '')
    throw refused(clientId, 'must have a path naming the document.');
  if (/(^|\/)\.\.?(\/|$)/.test(clientId.slice(url.origin.length))) {
    throw refused(clientId, 'must not contain . or .. path segments.');
  }
  return url;
}

/** `max-age` (or `no-store`/`no-cache` as 0) from a Cache-Control header; null when it says nothing. */
function cacheSeconds(header: string | undefined): number | null {
  if (!header) return null;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const m = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  return m ? Number(m[2]) : null;
}

interface Fetched {
  status: number;
  body: string;
  cacheControl: string | undefined;
}

function fetchDocument(target: OutboundTarget, maxBytes: number, timeoutMs: number): Promise<Fetched> {
  const { url } = target;
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err: Error | null, fetched?: Fetched) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(fetched!);
    };
    const req = get(
      url,
      {
        lookup: pinnedLookup(target),
        headers: { accept: 'application/json' },
        ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
      },
      (res) => {
        res.on('error', (err) => done(err));
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          done(new Error(`the document is ${declared} bytes, more than ${maxBytes}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) done(new Error(`the document is more than ${maxBytes} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          done(null, { status: res.statusCode ?? 0, body, cacheControl: res.headers['cache-control'] });
        });
      },
    );
    const timer = setTimeout(
      () => done(new Error(`the document did not arrive within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', (err) => done(err));
  });
}

/** Reads a fetched body as a document for `clientId`, or throws `invalid_client` naming the problem. */
function readDocument(clientId: string, url: URL, body: string): ClientMetadataDocument {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw refused(clientId, 'the document is not JSON.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw refused(clientId, 'the document is not a JSON object.');
  }
  const { client_id, client_secret, client_secret_expires_at, ...rest } = json as Record<string, unknown>;
  if (client_id !== clientId) {
    throw refused(
      clientId,
      `the document's client_id (${String(client_id).slice(0, 200)}) is not its own URL.`,
    );
  }
  if (client_secret !== undefined || client_secret_expires_at !== undefined) {
    throw refused(clientId, 'a metadata document must not carry a client secret.');
  }
  // A document's client has no secret here: it authenticates with PKCE alone.
  const method = rest.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw refused(clientId, `token_endpoint_auth_method "${String(method)}" is not supported; use "none".`);
  }
  let meta: ReturnType<typeof readClientMetadata>;
  try {
    meta = readClientMetadata({ ...rest, token_endpoint_auth_method: 'none' });
  } catch (err) {
    throw refused(clientId, `the document's ${(err as Error).message}`);
  }
  const named = typeof rest.client_name === 'string' && rest.client_name.trim() !== '';
  return {
    clientId,
    name: named ? meta.name : url.host,
    host: url.host,
    redirectUris: meta.redirectUris,
    extra: meta.extra,
  };
}

/**
 * Fetches and caches client ID metadata documents. Every fetch goes through the outbound guard (ADR 0247):
 * only public addresses, the address pinned for the connection, no redirects followed; a document larger
 * than `maxBytes` or slower than `timeoutMs` is refused, as is one that does not name its own URL as
 * client_id, carries a secret, or lists a redirect URI the registration rules refuse.
 *
 * @example
 * ```ts
 * const documents = createClientMetadataDocuments();
 * const doc = await documents.resolve('https://app.example/oauth/client.json'); // or OAuthError invalid_client
 * ```
 */
export function createClientMetadataDocuments(options: ClientMetadataDocumentOptions = {}) {
  const maxBytes = options.maxBytes ?? 5 * 1024;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxCacheMs = options.maxCacheMs ?? 24 * 60 * 60 * 1000;
  const defaultCacheMs = options.defaultCacheMs ?? 5 * 60 * 1000;
  const now = options.now ?? systemClock;
  const allowLoopback = options.allowLoopback === true;
  const guard = createOutboundGuard({
    allowLoopback,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  const cache = new Map<string, { doc: ClientMetadataDocument; until: number }>();

  async function resolve(clientId: string): Promise<ClientMetadataDocument> {
    const hit = cache.get(clientId);
    if (hit && hit.until > now()) return hit.doc;
    const url = checkClientIdUrl(clientId, allowLoopback);
    let fetched: Fetched;
    try {
      fetched = await fetchDocument(await guard.check(url), maxBytes, timeoutMs);
    } catch (err) {
      if (err instanceof OutboundRefusedError)
        throw refused(clientId, `the document cannot be fetched: ${err.message}`);
      throw refused(clientId, `the document could not be fetched (${(err as Error).message}).`);
    }
    if (fetched.status !== 200) {
      throw refused(
        clientId,
        `fetching the document answered HTTP ${fetched.status}, not 200 (redirects are not followed).`,
      );
    }
    const doc = readDocument(clientId, url, fetched.body);
    const seconds = cacheSeconds(fetched.cacheControl);
    const keep = Math.min(seconds === null ? defaultCacheMs : seconds * 1000, maxCacheMs);
    if (keep > 0) {
      // A small bound: an attacker naming many URLs must not grow the cache without end.
      if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
      cache.set(clientId, { doc, until: now() + keep });
    } else {
      cache.delete(clientId);
    }
    return doc;
  }

  return { resolve };
}

/** The resolver {@link createClientMetadataDocuments} returns. */
export type ClientMetadataDocuments = ReturnType<typeof createClientMetadataDocuments>;
