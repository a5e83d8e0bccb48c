// Bearer credentials to a connection principal, and the rules' refusals to 401/403 with doc1's header.
import { bearerToken, type ConnectionAuth, type ConnectionPrincipal } from '@screen-service/registry/hosts';
import { isServiceError } from '@screen-service/registry/kernel';
import { McpHttpError } from './errors.js';

/** `<mcp_url>/.well-known/oauth-protected-resource`: where a 401 sends clients for sign-in metadata. */
export function resourceMetadataUrl(mcpUrl: string): string {
  return `${mcpUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource`;
}

/**
 * Verifies `Authorization` (`Bearer svc_ct_...` today, `Bearer svc_at_...` once OAuth gives the core a
 * resolver) and maps refusals: 401 with `WWW-Authenticate: Bearer resource_metadata="..."`, 403
 * `not_an_mcp_connector`, 409 `connector_revoked` (as on every surface, ADR 0095), 403 `suspended`.
 *
 * @example
 * ```ts
 * const principal = await authenticate(auth, req.headers.authorization, resourceMetadataUrl(mcpUrl));
 * ```
 */
export async function authenticate(
  auth: ConnectionAuth,
  header: string | undefined,
  metadataUrl: string,
): Promise<ConnectionPrincipal> {
  try {
    return await auth.verify(header);
  } catch (err) {
    if (!isServiceError(err)) throw err;
    switch (err.code) {
      case 'NOT_AN_MCP_CONNECTOR':
      case 'CONNECTOR_REVOKED':
      case 'SUSPENDED':
        return refuse(err.code, err.message);
      default: {
        const sent = bearerToken(header) !== null;
        const challenge = `Bearer ${sent ? 'error="invalid_token", ' : ''}resource_metadata="${metadataUrl}"`;
        return refuse(
          'UNAUTHORIZED',
          sent
            ? 'The bearer token is not valid: pair again to get a connection token (svc_ct_...), or sign in.'
            : 'Send Authorization: Bearer svc_ct_<token> (from pairing) or an OAuth access token.',
          { headers: { 'www-authenticate': challenge } },
        );
      }
    }
  }
}

function refuse(...args: ConstructorParameters<typeof McpHttpError>): never {
  throw new McpHttpError(...args);
}
