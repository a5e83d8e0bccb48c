// The one reader of `Authorization: Bearer <token>` for every adapter: the rules receive the token, never
// the header.

const BEARER = /^\s*Bearer\s+(\S+)\s*$/i;

/**
 * The token of an `Authorization` header: `Bearer <token>` (the scheme in any case, spaces around it
 * ignored), or a bare service token (`svc_...`, which hosts built before the scheme was required still
 * send); null when the header is absent or holds anything else (`Basic ...`, two words, an empty value).
 *
 * @example
 * ```ts
 * bearerToken('Bearer svc_ct_abc'); // 'svc_ct_abc'
 * bearerToken('svc_ct_abc'); // 'svc_ct_abc'
 * bearerToken('Basic dXNlcjpwdw=='); // null
 * ```
 */
export function bearerToken(header: string | readonly string[] | undefined | null): string | null {
  if (typeof header !== 'string' || header === '') return null;
  const m = BEARER.exec(header);
  if (m) return m[1]!;
  const bare = header.trim();
  return bare.startsWith('svc_') && /^\S+$/.test(bare) ? bare : null;
}
