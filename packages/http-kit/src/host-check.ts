// DNS-rebinding protection: the Host header must name the configured service, on every route.
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * Middleware (Express or plain `node:http`) that answers 403 `host_not_allowed` to any request whose Host
 * header is not the service's ({@link createHostCheck}), on every route: a page on a rebound DNS name
 * reaches nothing, not the sign-in, the consent page nor the throttled endpoints.
 *
 * @example
 * ```ts
 * app.use(hostGuard(config.baseUrl));
 * ```
 */
export function hostGuard(
  publicUrl: string,
  extraHosts: string[] = [],
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const allowed = createHostCheck(publicUrl, extraHosts);
  return (req, res, next) => {
    if (allowed(req.headers.host)) {
      next();
      return;
    }
    res.statusCode = 403;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(
      JSON.stringify({
        error: 'host_not_allowed',
        message: 'This Host is not this service; use the address the service was configured with.',
      }),
    );
  };
}
