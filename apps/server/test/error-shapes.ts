// The three error shapes of the service's wires (ADR 0242), as checks a test asserts on any answer, and a raw
// HTTP client that can send what fetch cannot (a foreign Host, a wrong Content-Length, a compressed body).
import http from 'node:http';
import { expect } from 'vitest';

/** A raw answer: status, headers, and the body parsed as JSON. */
export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  body: any;
}

/** Sends one request as given (headers, body bytes) and parses the answer as JSON. */
export function raw(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
        } catch {
          reject(
            new Error(`${method} ${url} answered ${res.statusCode} with non-JSON: ${text.slice(0, 200)}`),
          );
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const OAUTH_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'invalid_scope',
  'invalid_target',
  'access_denied',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'temporarily_unavailable',
  'server_error',
];

/** The tool server's shape: a JSON-RPC error without an id, the stable code in `data.error`. */
export function expectJsonRpcError(r: Raw, status: number, rpc: number, code: string): void {
  expect({ status: r.status, rpc: r.body?.error?.code, code: r.body?.error?.data?.error }).toEqual({
    status,
    rpc,
    code,
  });
  expect(Object.keys(r.body).sort()).toEqual(['error', 'id', 'jsonrpc']);
  expect(r.body.jsonrpc).toBe('2.0');
  expect(r.body.id).toBeNull();
  expect(Object.keys(r.body.error).sort()).toEqual(['code', 'data', 'message']);
  expect(typeof r.body.error.message).toBe('string');
  expect(Object.keys(r.body.error.data).every((k) => k === 'error' || k === 'field')).toBe(true);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
}

/** Our JSON APIs' shape: `{error, message}` and only the optional `field` and `details`. */
export function expectApiError(r: Raw, status: number, code: string): void {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe('string');
  expect(r.body.message.length).toBeGreaterThan(0);
  const extra = Object.keys(r.body).filter((k) => !['error', 'message', 'field', 'details'].includes(k));
  expect(extra).toEqual([]);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
}

/** OAuth's shape (RFC 6749 section 5.2): exactly `{error, error_description}` with a protocol code. */
export function expectOAuthError(r: Raw, status: number, code: string): void {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(Object.keys(r.body).sort()).toEqual(['error', 'error_description']);
  expect(OAUTH_CODES).toContain(r.body.error);
  expect(typeof r.body.error_description).toBe('string');
  expect(r.headers['cache-control']).toBe('no-store');
}
