// RFC 7591 dynamic client registration: the request's metadata checked field by field.
import { cleanDisplayName } from '@screen-service/registry/kernel';
import type { OAuthClientAuthMethod } from '@screen-service/registry/model';
import { z } from 'zod';
import { OAuthError } from './errors.js';
import { MAX_CLIENT_NAME, MAX_REDIRECT_URIS, SCOPE } from './limits.js';
import { checkRedirectUri, isLoopbackHttp } from './redirect-uri.js';

/** What registration keeps about a client, before ids and secrets are minted. */
export interface ClientMetadata {
  name: string;
  authMethod: OAuthClientAuthMethod;
  redirectUris: string[];
  grantTypes: ('authorization_code' | 'refresh_token')[];
  /** The optional descriptive fields, echoed back in the registration answer. */
  extra: Record<string, unknown>;
}

/** The name shown when a client registers without one. */
export const UNNAMED_CLIENT = 'An unnamed app';

const webUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || isLoopbackHttp(u);
  } catch {
    return false;
  }
}, 'must be an https URL');

const shortText = z.string().max(200);

const registrationBody = z.object({
  redirect_uris: z.array(z.unknown()).min(1).max(MAX_REDIRECT_URIS),
  token_endpoint_auth_method: z.enum(['none', 'client_secret_post', 'client_secret_basic']).optional(),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .min(1)
    .optional(),
  response_types: z.array(z.literal('code')).min(1).optional(),
  // Control and direction characters go (a right-to-left override would reverse the consent page's text);
  // a name of nothing visible is refused.
  client_name: z
    .string()
    .transform((v, ctx) => {
      const name = cleanDisplayName(v);
      if (name !== null) return name;
      ctx.addIssue({ code: 'custom', message: 'no visible text' });
      return z.NEVER;
    })
    .pipe(z.string().min(1).max(MAX_CLIENT_NAME))
    .optional(),
  scope: z.string().optional(),
  client_uri: webUrl.optional(),
  logo_uri: webUrl.optional(),
  tos_uri: webUrl.optional(),
  policy_uri: webUrl.optional(),
  software_id: shortText.optional(),
  software_version: shortText.optional(),
  contacts: z.array(shortText).max(10).optional(),
});

const FIELD_HINTS: Record<string, string> = {
  redirect_uris: `a list of 1 to ${MAX_REDIRECT_URIS} redirect URIs`,
  token_endpoint_auth_method: 'one of none, client_secret_post, client_secret_basic',
  grant_types: 'a list of authorization_code and optionally refresh_token',
  response_types: 'exactly ["code"]',
  client_name: `text of 1 to ${MAX_CLIENT_NAME} visible characters`,
  contacts: 'a list of up to 10 strings',
};

/**
 * Reads a registration request body. Throws `invalid_redirect_uri` or `invalid_client_metadata` naming the
 * field and what it should be.
 *
 * @example
 * ```ts
 * const meta = readClientMetadata({ client_name: 'Claude', redirect_uris: ['https://claude.ai/cb'], token_endpoint_auth_method: 'none' });
 * meta.authMethod; // 'none'
 * ```
 */
export function readClientMetadata(body: unknown): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError(
      'invalid_client_metadata',
      'Send the client metadata as a JSON object (Content-Type: application/json), with redirect_uris.',
    );
  }
  const parsed = registrationBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'body');
    const hint = FIELD_HINTS[field] ?? issue.message;
    const code = field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    throw new OAuthError(code, `${field}: must be ${hint.replace(/^must be /, '')}.`);
  }
  const b = parsed.data;
  const redirectUris = b.redirect_uris.map(checkRedirectUri);
  if (b.scope !== undefined) {
    const words = b.scope.split(' ').filter(Boolean);
    if (words.some((w) => w !== SCOPE)) {
      throw new OAuthError(
        'invalid_client_metadata',
        `scope: only "${SCOPE}" is offered; send scope "${SCOPE}".`,
      );
    }
  }
  const grantTypes = b.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!grantTypes.includes('authorization_code')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types: must include authorization_code.');
  }
  const extra: Record<string, unknown> = {};
  for (const key of [
    'client_uri',
    'logo_uri',
    'tos_uri',
    'policy_uri',
    'software_id',
    'software_version',
    'contacts',
  ] as const) {
    if (b[key] !== undefined) extra[key] = b[key];
  }
  return {
    name: b.client_name ?? UNNAMED_CLIENT,
    // RFC 7591's default when the field is absent.
    authMethod: b.token_endpoint_auth_method ?? 'client_secret_basic',
    redirectUris,
    grantTypes: [...new Set(grantTypes)],
    extra,
  };
}
