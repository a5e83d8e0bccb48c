// Bearer credentials to a connection principal, and the challenge of the tool server's 401 (doc1).
import { bearerToken } from '@screen-service/http-kit';
import type { ConnectionAuth, ConnectionPrincipal } from '@screen-service/registry/hosts';
import { isServiceError, ServiceError } from '@screen-service/registry/kernel';

/** `<mcp_url>/.well-known/oauth-protected-resource`: where a 401 sends clients for sign-in metadata. */
export function resourceMetadataUrl(mcpUrl: string): string {
  return `${mcpUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource`;
}

/**
 * The `WWW-Authenticate` of the tool server's 401 (RFC 9728 and RFC 6750): where the sign-in metadata is,
 * and `error="invalid_token"` when a token was sent.
 *
 * @example
 * ```ts
 * bearerChallenge(resourceMetadataUrl(mcpUrl), true);
 * // 'Bearer error="invalid_token", resource_metadata="https://svc.example/functions/v1/svc-mcp/.well-known/oauth-protected-resource"'
 * ```
 */
export function bearerChallenge(metadataUrl: string, tokenSent: boolean): string {
  return `Bearer ${tokenSent ? 'error="invalid_token", ' : ''}resource_metadata="${metadataUrl}"`;
}

/**
 * Verifies `Authorization` (`Bearer svc_ct_...`, or `Bearer svc_at_...` once OAuth gives the core a
 * resolver). Refusals stay ServiceErrors: `NOT_AN_MCP_CONNECTOR` (403), `CONNECTOR_REVOKED` (409, as on
 * every surface, ADR 0095), `SUSPENDED` (403); anything else is `UNAUTHORIZED` (401) saying what to send.
 *
 * @example
 * ```ts
 * const principal = await authenticate(auth, req.headers.authorization);
 * ```
 */
export async function authenticate(
  auth: ConnectionAuth,
  header: string | undefined,
): Promise<ConnectionPrincipal> {
  const token = bearerToken(header);
  try {
    return await auth.verify(token);
  } catch (err) {
    if (!isServiceError(err)) throw err;
    if (err.code === 'NOT_AN_MCP_CONNECTOR' || err.code === 'CONNECTOR_REVOKED' || err.code === 'SUSPENDED') {
      throw err;
    }
    throw new ServiceError(
      'UNAUTHORIZED',
      token !== null
        ? 'The bearer token is not valid: pair again to get a connection token (svc_ct_...), or sign in.'
        : 'Send Authorization: Bearer svc_ct_<token> (from pairing) or an OAuth access token.',
    );
  }
}
