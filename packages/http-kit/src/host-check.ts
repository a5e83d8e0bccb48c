// DNS-rebinding protection: the Host header must name the configured service, on every route.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { ServiceError } from '@screen-service/registry/kernel';
import { sendHttpError } from './http-errors.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** How many accepted Host values a check remembers (a service is reached under a handful of names). */
const REMEMBERED_HOSTS = 16;

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
  // Every request asks with one of the same few values: an accepted one is remembered as it was sent, so
  // the next request with it costs one lookup (ADR 0295). Refusals are not remembered (a scan of names
  // must not fill the set); the set stops growing at REMEMBERED_HOSTS.
  const accepted = new Set<string>();
  return (raw) => {
    if (!raw) return false;
    if (accepted.has(raw)) return true;
    const host = raw.toLowerCase();
    const ok = exact.has(host) || (loopback && LOOPBACK.has(hostnameOf(host)));
    if (ok && accepted.size < REMEMBERED_HOSTS) accepted.add(raw);
    return ok;
  };
}

/** The refusal of a foreign Host (403 `host_not_allowed`), for answering it in another protocol's shape. */
export function hostNotAllowed(host: string | undefined): ServiceError {
  return new ServiceError(
    'HOST_NOT_ALLOWED',
    `Host ${host ?? '(none)'} is not this service; use the address the service was configured with.`,
  );
}

/** Options of {@link hostGuard}. */
export interface HostGuardOptions {
  /** More Host header values to accept (e.g. an internal name behind a proxy). */
  extraHosts?: string[];
  /**
   * Also accepts a Host that is an IP address (any port): health probes call a pod by its address, and a
   * rebinding page always sends its own DNS name, never an address. For the probe routes only.
   */
  allowAddresses?: boolean;
  /**
   * Answers the refusal; default the `{error, message}` shape. A server with several protocols answers each
   * path in its own (JSON-RPC on the tool server, RFC 6749 on OAuth).
   */
  refuse?: (err: ServiceError, req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Middleware (Express or plain `node:http`) that answers 403 `host_not_allowed` to any request whose Host
 * header is not the service's ({@link createHostCheck}), on every route: a page on a rebound DNS name
 * reaches nothing, not the sign-in, the consent page nor the throttled endpoints.
 *
 * @example
 * ```ts
 * app.use(hostGuard(config.baseUrl, { refuse: answerByProtocol }));
 * ```
 */
export function hostGuard(
  publicUrl: string,
  options: HostGuardOptions = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const named = createHostCheck(publicUrl, options.extraHosts);
  const address = (host: string | undefined) => {
    const name = host ? hostnameOf(host.toLowerCase()).replace(/^\[|\]$/g, '') : '';
    return options.allowAddresses === true && isIP(name) !== 0;
  };
  const allowed = (host: string | undefined) => named(host) || address(host);
  const refuse = options.refuse ?? ((err, _req, res) => void sendHttpError(res, err));
  return (req, res, next) => {
    if (allowed(req.headers.host)) next();
    else refuse(hostNotAllowed(req.headers.host), req, res);
  };
}
