// `/register`, `/token`, `/revoke` and the access-token lookup the tool server uses.

import { resolveAccessToken } from '@screen-service/registry/hosts';
import { digestsEqual, hashSecret } from '@screen-service/registry/kernel';
import type { OAuthClientRecord } from '@screen-service/registry/model';
import type { PresentedClient } from './client-auth.js';
import type { OAuthContext } from './context.js';
import { OAuthError } from './errors.js';
import { SCOPE } from './limits.js';
import { readClientMetadata } from './registration.js';
import { randomSecret } from './secrets.js';
import { authenticate, codeGrant, field, refreshGrant, type TokenResponse } from './token-grants.js';

export type { TokenResponse } from './token-grants.js';

/** The OAuth endpoints' use cases over one context. */
export function createTokens(ctx: OAuthContext) {
  const { store } = ctx;
  return {
    /** `POST {oauth}/register` (RFC 7591): the registration answer, with the secret shown once. */
    async register(body: unknown) {
      const meta = readClientMetadata(body);
      const at = ctx.now();
      const secret = meta.authMethod === 'none' ? null : randomSecret(ctx.random, 'svc_cs_');
      const client: OAuthClientRecord = {
        id: ctx.newId('cl_'),
        secretHash: secret ? hashSecret(secret) : null,
        authMethod: meta.authMethod,
        name: meta.name,
        redirectUris: meta.redirectUris,
        metadata: { ...meta.extra, grant_types: meta.grantTypes },
        createdAt: at,
      };
      await store.oauth.createClient(client);
      return {
        client_id: client.id,
        client_id_issued_at: Math.floor(at / 1000),
        ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        token_endpoint_auth_method: client.authMethod,
        grant_types: meta.grantTypes,
        response_types: ['code'],
        scope: SCOPE,
        ...meta.extra,
      };
    },

    /** `POST {oauth}/token`. */
    async token(presented: PresentedClient, form: Record<string, unknown>): Promise<TokenResponse> {
      const grantType = field(form, 'grant_type')!;
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new OAuthError(
          'unsupported_grant_type',
          `grant_type "${grantType.slice(0, 64)}" is not offered; use authorization_code or refresh_token.`,
        );
      }
      const client = await authenticate(ctx, presented);
      return grantType === 'authorization_code'
        ? codeGrant(ctx, client, form)
        : refreshGrant(ctx, client, form);
    },

    /**
     * `POST {oauth}/revoke` (RFC 7009): a refresh token ends the whole connection, an access token only
     * itself. Unknown tokens, and tokens of another client, are answered the same way and left alone.
     */
    async revoke(presented: PresentedClient, form: Record<string, unknown>): Promise<void> {
      const token = field(form, 'token')!;
      const client = await authenticate(ctx, presented);
      const hash = hashSecret(token);
      const t = await store.oauth.findToken(hash);
      if (!t || t.clientId !== client.id || !digestsEqual(t.tokenHash, hash)) return;
      const at = ctx.now();
      if (t.kind === 'refresh') {
        await store.oauth.revokeConnection(t.connectorId, at);
        ctx.notifier?.publish({ type: 'agents', userId: t.userId });
      } else {
        await store.oauth.revokeToken(t.id, at);
      }
    },

    /** For the tool server's auth: the connection a live `svc_at_` token belongs to, or null. */
    resolveAccessToken(token: string): Promise<{ connectorId: string } | null> {
      return resolveAccessToken(store, token, ctx.now());
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;
