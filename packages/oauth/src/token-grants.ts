// The token endpoint's grants (RFC 6749): client authentication, the authorization_code grant with PKCE and
// the refresh_token grant with rotation, and the tokens they issue. `/token` in tokens.ts picks one.

import { connectionState } from '@screen-service/registry/hosts';
import { digestsEqual, hashSecret, mintToken } from '@screen-service/registry/kernel';
import type { ConnectorRecord, OAuthClientRecord, OAuthTokenRecord } from '@screen-service/registry/model';
import type { PresentedClient } from './client-auth.js';
import { redeemAuthorizationCode } from './code-redemption.js';
import type { OAuthContext } from './context.js';
import { OAuthError } from './errors.js';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_MS, SCOPE } from './limits.js';
import { isCodeVerifier, verifierMatches } from './pkce.js';
import { randomSecret, sameResource } from './secrets.js';

/** The token endpoint's success body (RFC 6749 section 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** The remote_ref an approved agent carries on its OAuth connection. */
const OAUTH_REMOTE_REF = 'oauth';

function grants(client: OAuthClientRecord): string[] {
  const g = client.metadata.grant_types;
  return Array.isArray(g) ? (g as string[]) : ['authorization_code', 'refresh_token'];
}

/** Checks presented credentials against the registered client and its registered method. */
export async function authenticate(
  ctx: OAuthContext,
  presented: PresentedClient,
): Promise<OAuthClientRecord> {
  const client = await ctx.store.oauth.getClient(presented.clientId);
  const refuse = (why: string) => new OAuthError('invalid_client', why);
  if (!client) throw refuse('Unknown client_id: register the app again.');
  if (client.authMethod === 'none') {
    if (presented.method !== 'none') {
      throw refuse(
        'This app registered as a public client (token_endpoint_auth_method none): send no secret.',
      );
    }
    return client;
  }
  if (presented.method !== client.authMethod) {
    throw refuse(
      client.authMethod === 'client_secret_basic'
        ? 'This app registered client_secret_basic: send the secret in Authorization: Basic.'
        : 'This app registered client_secret_post: send client_id and client_secret in the form body.',
    );
  }
  if (
    !presented.secret ||
    !client.secretHash ||
    !digestsEqual(hashSecret(presented.secret), client.secretHash)
  ) {
    throw refuse('The client secret is wrong.');
  }
  return client;
}

function mint(
  ctx: OAuthContext,
  kind: 'access' | 'refresh',
  connectorId: string,
  userId: string,
  clientId: string,
  at: number,
) {
  const token = mintToken(kind === 'access' ? 'svc_at_' : 'svc_rt_', ctx.random);
  const record: OAuthTokenRecord = {
    id: ctx.newId('tok_'),
    kind,
    tokenHash: hashSecret(token),
    connectorId,
    userId,
    clientId,
    createdAt: at,
    expiresAt: at + (kind === 'access' ? ACCESS_TOKEN_TTL_S * 1000 : REFRESH_TOKEN_TTL_MS),
    usedAt: null,
    revokedAt: null,
  };
  return { token, record };
}

/** An access token (and a refresh token when the client registered that grant) for one connection. */
function pair(ctx: OAuthContext, client: OAuthClientRecord, connectorId: string, userId: string, at: number) {
  const access = mint(ctx, 'access', connectorId, userId, client.id, at);
  const refresh = grants(client).includes('refresh_token')
    ? mint(ctx, 'refresh', connectorId, userId, client.id, at)
    : null;
  const response: TokenResponse = {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    ...(refresh ? { refresh_token: refresh.token } : {}),
    scope: SCOPE,
  };
  return { records: refresh ? [access.record, refresh.record] : [access.record], response };
}

/** One form field: missing (when required) or repeated is invalid_request. */
export const field = (form: Record<string, unknown>, name: string, required = true): string | undefined => {
  const v = form[name];
  if (v === undefined || v === '') {
    if (required) throw new OAuthError('invalid_request', `${name} is missing.`);
    return undefined;
  }
  if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} was sent more than once.`);
  return v;
};

function checkResource(ctx: OAuthContext, form: Record<string, unknown>) {
  const resource = field(form, 'resource', false);
  if (resource !== undefined && !sameResource(resource, ctx.urls.mcpUrl)) {
    throw new OAuthError('invalid_target', `resource must be ${ctx.urls.mcpUrl}.`);
  }
  const scope = field(form, 'scope', false);
  if (scope?.split(' ').some((w) => w !== '' && w !== SCOPE)) {
    throw new OAuthError('invalid_scope', `Only the scope "${SCOPE}" is offered.`);
  }
}

/** The authorization_code grant: checks the code, the redirect and PKCE, then redeems it in one transaction. */
export async function codeGrant(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  form: Record<string, unknown>,
): Promise<TokenResponse> {
  const code = field(form, 'code')!;
  const verifier = field(form, 'code_verifier', false);
  const redirectUri = field(form, 'redirect_uri', false);
  checkResource(ctx, form);
  const at = ctx.now();
  const codeHash = hashSecret(code);
  const req = await ctx.store.oauth.findRequestByCodeHash(codeHash);
  const invalid = (why: string) => new OAuthError('invalid_grant', why);
  if (!req || req.codeHash === null || !digestsEqual(req.codeHash, codeHash)) {
    throw invalid('Unknown authorization code; start the sign-in again.');
  }
  if (req.clientId !== client.id) throw invalid('This code was issued to another app.');
  if (req.codeUsedAt !== null) {
    // A code used twice may have leaked: end what the first use made (RFC 6749 section 4.1.2).
    if (req.connectorId) await ctx.store.oauth.revokeConnection(req.connectorId, at);
    throw invalid('This code was already used; its tokens are revoked. Start the sign-in again.');
  }
  if (req.codeExpiresAt === null || req.codeExpiresAt <= at) {
    throw invalid('This code expired (codes last one minute); start the sign-in again.');
  }
  if (redirectUri === undefined) {
    throw new OAuthError('invalid_request', 'redirect_uri is missing: send the one used to authorize.');
  }
  if (redirectUri !== req.redirectUri) throw invalid('redirect_uri differs from the one used to authorize.');
  if (verifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is missing (PKCE).');
  if (!isCodeVerifier(verifier)) {
    throw new OAuthError(
      'invalid_request',
      'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.',
    );
  }
  if (!verifierMatches(verifier, req.codeChallenge)) {
    throw invalid('code_verifier does not match the code_challenge sent to authorize.');
  }
  const connector: ConnectorRecord = {
    id: ctx.newId('con_'),
    userId: req.userId!,
    name: client.name,
    kind: 'mcp',
    // No connector token exists for an OAuth connection: this hash is of a secret nobody holds.
    tokenHash: hashSecret(randomSecret(ctx.random)),
    createdAt: at,
    lastSeenAt: at,
    revokedAt: null,
    suspendedAt: null,
    via: 'oauth',
  };
  const issued = pair(ctx, client, connector.id, connector.userId, at);
  const outcome = await redeemAuthorizationCode(ctx.store, {
    requestId: req.id,
    at,
    connector,
    remoteRef: OAUTH_REMOTE_REF,
    tokens: issued.records,
  });
  if (outcome === 'code_used') throw invalid('This code was already used; start the sign-in again.');
  if (outcome === 'code_expired') throw invalid('This code expired; start the sign-in again.');
  if (outcome === 'agent_gone') {
    throw invalid('The agent picked for this sign-in was deleted; start the sign-in again.');
  }
  if (outcome !== 'ok') throw invalid('This sign-in was not approved; start again.');
  ctx.notifier?.publish({ type: 'agents', userId: connector.userId });
  return issued.response;
}

/** The refresh_token grant: one rotation per token; a replay revokes the connection. */
export async function refreshGrant(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  form: Record<string, unknown>,
): Promise<TokenResponse> {
  const presented = field(form, 'refresh_token')!;
  checkResource(ctx, form);
  if (!grants(client).includes('refresh_token')) {
    throw new OAuthError('unauthorized_client', 'This app did not register the refresh_token grant.');
  }
  const at = ctx.now();
  const hash = hashSecret(presented);
  const t = await ctx.store.oauth.findToken(hash);
  const invalid = (why: string) => new OAuthError('invalid_grant', why);
  if (t?.kind !== 'refresh' || !digestsEqual(t.tokenHash, hash)) throw invalid('Unknown refresh token.');
  if (t.clientId !== client.id) throw invalid('This refresh token was issued to another app.');
  if (t.revokedAt !== null) throw invalid('This sign-in was revoked; sign in again.');
  const replay = async () => {
    await ctx.store.oauth.revokeConnection(t.connectorId, at);
    ctx.notifier?.publish({ type: 'agents', userId: t.userId });
    return invalid(
      'This refresh token was already used, so the connection is revoked for safety; sign in again.',
    );
  };
  if (t.usedAt !== null) throw await replay();
  if (t.expiresAt <= at) throw invalid('This refresh token expired (60 days); sign in again.');
  const connector = await ctx.store.connectors.get(t.connectorId);
  const state = connectionState(connector, await ctx.store.users.findById(t.userId));
  if (state === 'missing' || state === 'revoked')
    throw invalid('This connection was removed in the app; sign in again.');
  if (state !== 'live') throw invalid('This account or connection is suspended.');
  const issued = pair(ctx, client, t.connectorId, t.userId, at);
  if (!(await ctx.store.oauth.rotateRefresh(t.id, issued.records, at))) throw await replay();
  return issued.response;
}
