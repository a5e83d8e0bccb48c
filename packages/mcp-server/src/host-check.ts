// DNS-rebinding protection: the Host header must name the configured service.
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
}

/**
 * A predicate over the Host header. Allowed: the host of `publicUrl` (with its port), any `extraHosts`,
 * and, when `publicUrl` is itself on loopback, any loopback host on any port (only a loopback origin can
 * send those, so rebinding cannot forge them). Origin is not checked: credentials are bearer tokens, never
 * cookies, so a cross-origin page gains nothing a token does not already give.
 *
 * @example
 * ```ts
 * const allowed = createHostCheck('https://svc.example.com/functions/v1/svc-mcp');
 * allowed('svc.example.com'); // true
 * allowed('evil.example.com'); // false
 * ```
 */
export function createHostCheck(
  publicUrl: string,
  extraHosts: string[] = [],
): (host: string | undefined) => boolean {
  const url = new URL(publicUrl);
  const exact = new Set([url.host.toLowerCase(), ...extraHosts.map((h) => h.toLowerCase())]);
  const loopback = LOOPBACK.has(url.hostname.toLowerCase());
  return (raw) => {
    if (!raw) return false;
    const host = raw.toLowerCase();
    return exact.has(host) || (loopback && LOOPBACK.has(hostnameOf(host)));
  };
}
