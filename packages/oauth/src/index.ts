// @screen-service/oauth public API. Every export here is public; nothing else is.
export { type PresentedClient, readClientCredentials } from './client-auth.js';
export {
  type ClientMetadataDocument,
  type ClientMetadataDocumentOptions,
  type ClientMetadataDocuments,
  createClientMetadataDocuments,
  isClientIdUrl,
} from './client-metadata-document.js';
export type { DecisionInput, PageView, RequestStatus, RequestView } from './consent.js';
export { isOAuthError, OAuthError, type OAuthErrorCode } from './errors.js';
export {
  ACCESS_TOKEN_TTL_S,
  AUTH_CODE_TTL_MS,
  MAX_POLL_WAIT_S,
  REFRESH_TOKEN_TTL_MS,
  REQUEST_TTL_MS,
  SCOPE,
} from './limits.js';
export {
  authorizationServerMetadata,
  type OAuthUrls,
  pathInsertedIssuerMetadataPaths,
  pathInsertedMetadataPath,
  protectedResourceMetadata,
} from './metadata.js';
export { createOAuthServer, type OAuthServer, type OAuthServerOptions } from './oauth-server.js';
export { isCodeVerifier, s256Challenge } from './pkce.js';
export { checkRedirectUri, redirectUriMatches } from './redirect-uri.js';
export { type ClientMetadata, readClientMetadata, UNNAMED_CLIENT } from './registration.js';
export {
  createOAuthMounts,
  createOAuthRouter,
  createResourceMetadataRouter,
  issuerMetadataHandler,
  OAUTH_RATE_DEFAULTS,
  type OAuthRateLimits,
  type OAuthRouterOptions,
  resourceMetadataHandler,
} from './router.js';
export type { TokenResponse } from './tokens.js';
