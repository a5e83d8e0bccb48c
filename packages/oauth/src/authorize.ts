// `/authorize`: checks the client and redirect URI (errors shown to the person), then the rest of the
// request (errors sent back to the client with `state` and `iss`), and records a pending request bound to
// the browser that started it.
import { hashSecret } from '@screen-service/registry/kernel';
import type { OAuthClientRecord, OAuthRequestRecord } from '@screen-service/registry/model';
import { isClientIdUrl } from './client-metadata-document.js';
import type { OAuthContext } from './context.js';
import { OAuthError } from './errors.js';
import { REQUEST_TTL_MS, SCOPE } from './limits.js';
import { isS256Challenge } from './pkce.js';
import { isLoopbackHttp, redirectUriMatches, withQuery } from './redirect-uri.js';
import { randomSecret, sameResource } from './secrets.js';

/** A pending request: send the browser to `location` with the secret in a cookie scoped to the request. */
export interface AuthorizeStarted {
  requestId: string;
  /** Goes in the browser's cookie only; its hash binds the request to that browser. */
  browserSecret: string;
  /** The consent page for this request. */
  location: string;
  /** Seconds the request (and its cookie) lives. */
  maxAgeS: number;
}

/** Prunes lapsed rows at most this often (on authorize calls). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * The client a request names and the redirect URIs it may use: a registered client's, or for a client_id
 * that is a metadata document's URL, the document's (fetched now or from the cache: the document is the
 * authority, so a changed document counts at once). Such a client gets a row on first use, under its URL,
 * so requests, codes and grants refer to it like to a registered one.
 */
async function clientOf(ctx: OAuthContext, clientId: string) {
  if (ctx.documents && isClientIdUrl(clientId)) {
    const doc = await ctx.documents.resolve(clientId);
    const row = {
      id: clientId,
      secretHash: null,
      authMethod: 'none' as const,
      name: doc.name,
      redirectUris: doc.redirectUris,
      metadata: { ...doc.extra, client_id_metadata_document: doc.host },
      createdAt: ctx.now(),
    };
    const known = await ctx.store.oauth.getClient(clientId);
    if (known) return { client: await refreshed(ctx, known, row), redirectUris: doc.redirectUris };
    // Two first requests at once: the second insert fails, and the row the first wrote is the one.
    const client = await ctx.store.oauth.createClient(row).catch(async (err) => {
      const now = await ctx.store.oauth.getClient(clientId);
      if (!now) throw err;
      return now;
    });
    return { client, redirectUris: doc.redirectUris };
  }
  const client = await ctx.store.oauth.getClient(clientId);
  if (!client) {
    throw new OAuthError(
      'invalid_request',
      `Unknown client_id "${clientId.slice(0, 64)}": the app must register again at ${ctx.urls.oauthUrl}/register.`,
    );
  }
  return { client, redirectUris: client.redirectUris };
}

/**
 * A document client's row as its document now reads (fetched again once its cache time ran out): a renamed
 * client shows its new name at consent and on the grants it gets from now on. Unchanged rows are not written.
 */
async function refreshed(
  ctx: OAuthContext,
  known: OAuthClientRecord,
  doc: Pick<OAuthClientRecord, 'name' | 'redirectUris' | 'metadata'>,
): Promise<OAuthClientRecord> {
  const fields = { name: doc.name, redirectUris: doc.redirectUris, metadata: doc.metadata };
  const same =
    known.name === fields.name &&
    JSON.stringify(known.redirectUris) === JSON.stringify(fields.redirectUris) &&
    JSON.stringify(known.metadata) === JSON.stringify(fields.metadata);
  if (same) return known;
  await ctx.store.oauth.updateClient(known.id, fields);
  return { ...known, ...fields };
}

export function createAuthorize(ctx: OAuthContext) {
  let pruneAt = 0;

  return async function authorize(query: Record<string, unknown>): Promise<AuthorizeStarted> {
    const at = ctx.now();
    if (at >= pruneAt) {
      pruneAt = at + PRUNE_EVERY_MS;
      // Codes outlive their request by at most a minute; a day of margin keeps reuse detection useful.
      await ctx.store.oauth.prune(at - 24 * 60 * 60 * 1000);
    }
    const single = (name: string): string | undefined => {
      const v = query[name];
      if (v === undefined || v === '') return undefined;
      if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} was sent more than once.`);
      return v;
    };

    // Until the client and its redirect URI check out, errors are shown, never redirected (RFC 6749 4.1.2.1).
    const clientId = single('client_id');
    if (!clientId) {
      throw new OAuthError(
        'invalid_request',
        "client_id is missing: send the URL of the app's client metadata document, or register first (RFC 7591).",
      );
    }
    const { client, redirectUris } = await clientOf(ctx, clientId);
    const given = single('redirect_uri');
    let redirectUri: string;
    if (given === undefined) {
      if (redirectUris.length !== 1) {
        throw new OAuthError(
          'invalid_request',
          'redirect_uri is missing and this client registered several.',
        );
      }
      redirectUri = redirectUris[0]!;
    } else if (redirectUris.some((r) => redirectUriMatches(r, given))) {
      redirectUri = given;
    } else {
      throw new OAuthError(
        'invalid_request',
        `redirect_uri "${given.slice(0, 200)}" is not registered for this app; register it, then try again.`,
      );
    }

    const state = typeof query.state === 'string' && query.state !== '' ? query.state : null;
    // RFC 9700 4.11.2: anyone may register a client, so an error sent straight back to its https address
    // would make this server an open redirector. Errors go back only to a loopback app on this machine;
    // for any other address the person sees the error page.
    const back = (error: OAuthError['error'], description: string) =>
      new OAuthError(error, description, {
        redirect: redirectsErrors(redirectUri)
          ? withQuery(redirectUri, {
              error,
              error_description: description,
              state,
              iss: ctx.urls.oauthUrl,
            })
          : undefined,
      });
    const field = (name: string) => {
      try {
        return single(name);
      } catch (err) {
        throw back('invalid_request', (err as Error).message);
      }
    };

    const responseType = field('response_type');
    if (responseType !== 'code') {
      throw back('unsupported_response_type', 'response_type must be "code" (authorization code flow).');
    }
    const challenge = field('code_challenge');
    const method = field('code_challenge_method');
    if (!challenge) throw back('invalid_request', 'code_challenge is required: PKCE with S256.');
    if (method !== 'S256') {
      throw back(
        'invalid_request',
        `code_challenge_method must be S256${method ? `; "${method}" is not accepted` : ''}.`,
      );
    }
    if (!isS256Challenge(challenge)) {
      throw back(
        'invalid_request',
        'code_challenge must be BASE64URL(SHA-256(code_verifier)): 43 characters.',
      );
    }
    const resource = field('resource');
    if (!resource) throw back('invalid_target', `resource is required: send resource=${ctx.urls.mcpUrl}.`);
    if (!sameResource(resource, ctx.urls.mcpUrl)) {
      throw back(
        'invalid_target',
        `resource must be ${ctx.urls.mcpUrl}, the tool server these tokens are for.`,
      );
    }
    const scope = field('scope') ?? SCOPE;
    if (scope.split(' ').some((w) => w !== '' && w !== SCOPE)) {
      throw back('invalid_scope', `Only the scope "${SCOPE}" is offered; ask for scope=${SCOPE}.`);
    }

    const browserSecret = randomSecret(ctx.random);
    const request: OAuthRequestRecord = {
      id: ctx.newId('ar_'),
      clientId: client.id,
      redirectUri,
      state,
      codeChallenge: challenge,
      scope: SCOPE,
      resource: ctx.urls.mcpUrl,
      browserHash: hashSecret(browserSecret),
      createdAt: at,
      expiresAt: at + REQUEST_TTL_MS,
      status: 'pending',
      userId: null,
      agentId: null,
      decidedAt: null,
      finishedAt: null,
      codeHash: null,
      codeExpiresAt: null,
      codeUsedAt: null,
      connectorId: null,
    };
    await ctx.store.oauth.createRequest(request);
    return {
      requestId: request.id,
      browserSecret,
      location: withQuery(ctx.urls.connectPageUrl, { request: request.id }),
      maxAgeS: REQUEST_TTL_MS / 1000,
    };
  };
}

/** Whether `/authorize` errors may go back to this redirect URI: only to a loopback app (see `back`). */
function redirectsErrors(redirectUri: string): boolean {
  try {
    return isLoopbackHttp(new URL(redirectUri));
  } catch {
    return false;
  }
}
