// The discovery documents: authorization-server metadata (RFC 8414, also served as OpenID discovery) and
// protected-resource metadata (RFC 9728).
import { SCOPE } from './limits.js';

/** Where everything lives. `oauthUrl` is the issuer. */
export interface OAuthUrls {
  /** `{base_url}`: the person's app (and the approval link) live here. */
  baseUrl: string;
  /** `{base_url}/functions/v1/svc-oauth`: the issuer and the endpoints under it. */
  oauthUrl: string;
  /** `{base_url}/functions/v1/svc-mcp`: the one resource tokens are for. */
  mcpUrl: string;
  /** `{connect_page}`: the consent page (the request id goes in `?request=`). */
  connectPageUrl: string;
}

const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];

/**
 * RFC 8414 metadata. The same document answers `openid-configuration` (the MCP client's third discovery
 * try), so it carries the fields an OpenID discovery parser requires; no `openid` scope is offered, so no
 * ID token is ever issued and the key set is empty.
 *
 * @example
 * ```ts
 * authorizationServerMetadata(urls).token_endpoint; // 'https://svc.example/functions/v1/svc-oauth/token'
 * ```
 */
export function authorizationServerMetadata(
  urls: OAuthUrls,
  options: { clientIdMetadataDocuments?: boolean } = {},
) {
  const o = urls.oauthUrl;
  return {
    issuer: o,
    authorization_endpoint: `${o}/authorize`,
    token_endpoint: `${o}/token`,
    registration_endpoint: `${o}/register`,
    revocation_endpoint: `${o}/revoke`,
    jwks_uri: `${o}/jwks`,
    scopes_supported: [SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    authorization_response_iss_parameter_supported: true,
    // A client_id may be the https URL of a Client ID Metadata Document instead of a registered id.
    ...(options.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    service_documentation: `${urls.baseUrl}/`,
  };
}

/**
 * RFC 9728 metadata of the tool server.
 *
 * @example
 * ```ts
 * protectedResourceMetadata(urls).authorization_servers; // [urls.oauthUrl]
 * ```
 */
export function protectedResourceMetadata(urls: OAuthUrls) {
  return {
    resource: urls.mcpUrl,
    authorization_servers: [urls.oauthUrl],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Screen Service',
    resource_documentation: `${urls.baseUrl}/`,
  };
}

/**
 * The RFC 9728 path-inserted location of a resource's metadata on its host:
 * `https://h/p/mcp` → `/.well-known/oauth-protected-resource/p/mcp`.
 */
export function pathInsertedMetadataPath(resourceUrl: string): string {
  const path = new URL(resourceUrl).pathname.replace(/\/+$/, '');
  return `/.well-known/oauth-protected-resource${path}`;
}

/**
 * The RFC 8414 path-inserted locations of the authorization server's metadata on its host (the issuer has a
 * path, so `{issuer}/.well-known/...` is not where RFC 8414 clients look first):
 * `https://h/functions/v1/svc-oauth` → `/.well-known/oauth-authorization-server/functions/v1/svc-oauth` (and
 * the same under `openid-configuration`, which some clients try with the path inserted too).
 */
export function pathInsertedIssuerMetadataPaths(issuer: string): string[] {
  const path = new URL(issuer).pathname.replace(/\/+$/, '');
  return [`/.well-known/oauth-authorization-server${path}`, `/.well-known/openid-configuration${path}`];
}
