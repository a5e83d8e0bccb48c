// The one spelling of an email address the store keeps and looks up: trimmed, lower case.

/**
 * The form an email address is stored and looked up in: surrounding space trimmed, lower case, so
 * `Ada@Example.com ` and `ada@example.com` are one account on every surface (sign-up, sign-in, `svc
 * connect`, sharing by email, the CLI's `--email`). It checks nothing: validation stays with the use case.
 *
 * @example
 * ```ts
 * normalizeEmail('  Ada@Example.COM '); // 'ada@example.com'
 * ```
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
