// The pending OAuth sign-in as the consent page and the person's app see it (oauth-contract.md).

export type OAuthRequestStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'finished';

/** `GET {app}/oauth/requests/:id` (the consent page's `GET {oauth}/requests/:id` adds `approve_url`). */
export interface OAuthRequest {
  id: string;
  status: OAuthRequestStatus;
  client: { name: string; uri: string | null; logo_uri: string | null };
  redirect: { uri: string; host: string };
  expires_at: string;
  agent: { id: string; name: string } | null;
}

/** Where the person's app shows a request: `{base}/#/approve/<id>`; `/here` finishes in the same browser. */
export function approveHash(id: string, here = false): string {
  return `#/approve/${encodeURIComponent(id)}${here ? '/here' : ''}`;
}

/** The consent page for a request, relative to the base URL (`{base}/connect?request=<id>`). */
export function connectPath(id: string): string {
  return `connect?request=${encodeURIComponent(id)}`;
}
