// Lifetimes and sizes of doc1's OAuth rules, in one place.

/** The one scope: everything the tool server offers. */
export const SCOPE = 'svc';
/** `svc_at_` access tokens last 1 hour. */
export const ACCESS_TOKEN_TTL_S = 3600;
/** `svc_rt_` refresh tokens last 60 days and work once. */
export const REFRESH_TOKEN_TTL_MS = 60 * 24 * 60 * 60 * 1000;
/** Authorization codes: single use, one minute from the browser's return to the client. */
export const AUTH_CODE_TTL_MS = 60 * 1000;
/** How long the person has to approve on the consent page. */
export const REQUEST_TTL_MS = 15 * 60 * 1000;
/** Longest hold of a consent-page poll. */
export const MAX_POLL_WAIT_S = 25;
/** Redirect URIs one client may register. */
export const MAX_REDIRECT_URIS = 10;
/** Longest client name kept (the consent page shows it). */
export const MAX_CLIENT_NAME = 100;
