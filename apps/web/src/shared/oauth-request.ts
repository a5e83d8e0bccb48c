// The pending OAuth sign-in as the consent page and the person's app see it (oauth-contract.md).

/**
 * `GET {app}/oauth/requests/:id`; the consent page's `GET {oauth}/requests/:id` adds `approve_url`.
 * The server's own types, imported for their shape only (nothing of the package reaches a bundle).
 */
export type {
  PageView as ConsentRequest,
  RequestStatus as OAuthRequestStatus,
  RequestView as OAuthRequest,
} from '@screen-service/oauth';

/** Where the person's app shows a request: `{base}/#/approve/<id>`; `/here` finishes in the same browser. */
export function approveHash(id: string, here = false): string {
  return `#/approve/${encodeURIComponent(id)}${here ? '/here' : ''}`;
}

/** The consent page for a request, relative to the base URL (`{base}/connect?request=<id>`). */
export function connectPath(id: string): string {
  return `connect?request=${encodeURIComponent(id)}`;
}
