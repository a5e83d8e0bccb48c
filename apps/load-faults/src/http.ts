// A small HTTP/1.1 client on node:http: JSON in and out, a deadline, and an optional local address.
import http from 'node:http';

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless it is already a string (then sent as is with the given content-type). */
  body?: unknown;
  /** Gives up (error `TIMEOUT`) after this long; default 30 s. */
  timeoutMs?: number;
  /** Source address on the loopback (127.0.0.x): the service's per-address limits then see distinct clients. */
  localAddress?: string;
  agent?: http.Agent;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: replies are read field by field by the suites
  json: any;
}

/** An error of the transport (no HTTP status): `code` is Node's (ECONNREFUSED, ECONNRESET) or TIMEOUT. */
export class TransportError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
  }
}

/**
 * One request; resolves with any HTTP status, rejects with a TransportError when no answer came.
 *
 * @example
 * ```ts
 * const r = await request(`${base}/healthz`);
 * if (r.status === 200) console.log(r.json.ok);
 * ```
 */
export function request(url: string, options: RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    let payload: string | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string') payload = options.body;
      else {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const req = http.request(url, {
      method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
      headers,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
    });
    const timer = setTimeout(() => {
      req.destroy(
        new TransportError('TIMEOUT', `No answer from ${url} within ${options.timeoutMs ?? 30_000} ms`),
      );
    }, options.timeoutMs ?? 30_000);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err instanceof TransportError ? err : new TransportError(err.code ?? 'ERROR', err.message));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => {});
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = text === '' ? null : JSON.parse(text);
        } catch {
          // not JSON: callers read `text`
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('aborted', () => {
        clearTimeout(timer);
        reject(new TransportError('ECONNRESET', `The answer from ${url} was cut off`));
      });
    });
    req.end(payload);
  });
}
