// Test harness: the real server on 127.0.0.1 over a temp data dir, and a small JSON client for it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type RunningServer, startServer } from '../src/index.js';

export const API = '/functions/v1/svc-app';

export interface TestServer {
  running: RunningServer;
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-http-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir }, '/');
  const running = await startServer(config, pino({ level: 'silent' }));
  return {
    running,
    base: `http://127.0.0.1:${running.port}`,
    dataDir,
    async close() {
      await running.close(500);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
}

export function client(base: string) {
  return async function call(
    method: string,
    p: string,
    opts: { token?: string; body?: unknown; raw?: Buffer; type?: string } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: Uint8Array | string | undefined;
    if (opts.raw) {
      headers['content-type'] = opts.type ?? 'image/png';
      body = new Uint8Array(opts.raw);
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(base + (p.startsWith('/functions') || p.startsWith('/openapi') ? p : API + p), {
      method,
      headers,
      body,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON (a photo): keep the text
    }
    return { status: res.status, body: parsed };
  };
}

/** Signs up a person and gives back their access token. */
export async function signUp(call: ReturnType<typeof client>, email: string) {
  const r = await call('POST', '/auth/signup', { body: { email, password: 'correct horse battery' } });
  if (r.status !== 201) throw new Error(`signup failed: ${JSON.stringify(r.body)}`);
  return r.body as { access_token: string; refresh_token: string; user: { id: string } };
}

/** A tiny valid PNG (1x1). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
