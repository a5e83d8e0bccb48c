// Listening and draining a node:http server the way a service should: the port known at once, and on stop
// in-flight requests finish (up to a grace period) while idle keep-alive sockets close as they appear.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Connections the kernel queues for accept (capped by `net.core.somaxconn`). Node's default of 511
 * overflowed under 200-1,000 clients while the event loop was busy for a few seconds: dropped SYNs
 * come back after 1, 3, 7, 15 s, so calls took 15-40 s (`npm run load`, docs/load-and-faults.md).
 */
export const LISTEN_BACKLOG = 4096;

/**
 * How long an idle keep-alive connection stays open (ms): longer than the 60 s proxies and clients keep
 * theirs, so they close first, and a busy client reuses its connection instead of reconnecting every 5 s.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** An HTTP server that is listening, and how to drain it. */
export interface ListeningServer {
  server: http.Server;
  /** The port bound (the system's pick when 0 was asked). */
  port: number;
  /** True once {@link ListeningServer.drain} began: answers then close their connection. */
  readonly draining: boolean;
  /**
   * Stops accepting, lets in-flight requests finish for up to `graceMs` (then cuts them), and resolves
   * when the server closed. Calling it again returns the same promise.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * Listens on `port`/`host`; rejects with the listen error (EADDRINUSE, EACCES...).
 *
 * @example
 * ```ts
 * const http = await listenHttp(8787, '0.0.0.0');
 * http.server.on('request', app);
 * await http.drain(4000);
 * ```
 */
export async function listenHttp(port: number, host: string): Promise<ListeningServer> {
  const server = http.createServer();
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's advice: the headers timeout above the keep-alive one, or a reused connection can be cut.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  let drained: Promise<void> | undefined;
  // While draining, answers close their connection so keep-alive sockets do not hold the exit.
  server.on('request', (_req, res) => {
    if (drained) res.setHeader('connection', 'close');
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    get draining() {
      return drained !== undefined;
    },
    drain(graceMs) {
      drained ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        // Sockets that finish their last request after close() began are idle: close them as they appear.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      return drained;
    },
  };
}

/**
 * The base URL to advertise once the server listens: a base URL on port 0 (the default with PORT=0)
 * takes the port the system picked, so the OAuth issuer, MCP URL and photo links are reachable.
 */
export function resolveBaseUrl(baseUrl: string, listeningPort: number): string {
  const url = new URL(baseUrl);
  if (url.port !== '0') return baseUrl;
  url.port = String(listeningPort);
  return url.href.replace(/\/+$/, '');
}
