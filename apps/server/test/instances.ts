// Several service instances on one PostgreSQL database, as a deployment runs them: the same SVC_BASE_URL,
// SVC_SECRET and SVC_DATABASE_URL, each its own port and data folder. In-process (real HTTP on 127.0.0.1,
// each its own pool and LISTEN connection) or as a child process a test can kill.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOUNTS } from '@screen-service/registry/mounts';
import pino from 'pino';
import { loadConfig, type RunningServer, startServer } from '../src/index.js';

/** The public address every instance advertises (what the balancer would answer on). */
export const SHARED_HOST = 'svc.test';
export const SHARED_BASE = `http://${SHARED_HOST}`;

export interface Deployment {
  url: string;
  secret: string;
  env(extra?: Record<string, string>): Record<string, string>;
}

export function deployment(databaseUrl: string): Deployment {
  const secret = randomBytes(32).toString('base64url');
  return {
    url: databaseUrl,
    secret,
    env: (extra = {}) => ({
      HOST: '127.0.0.1',
      PORT: '0',
      SVC_BASE_URL: SHARED_BASE,
      SVC_SECRET: secret,
      SVC_DATABASE_URL: databaseUrl,
      ...extra,
    }),
  };
}

export interface Instance {
  name: string;
  port: number;
  /** In-process instances only. */
  running?: RunningServer;
  close(): Promise<void>;
}

/** One instance in this process. */
export async function startInstance(d: Deployment, name: string, extra: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  const config = { ...loadConfig(d.env({ SVC_DATA_DIR: dataDir, ...extra }), '/'), checkResponses: true };
  const running = await startServer(config, pino({ level: 'silent' }));
  return {
    name,
    port: running.port,
    running,
    async close() {
      await running.close(500);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  } satisfies Instance;
}

/** One instance in a child process (killed with `kill()`: no graceful stop, like a crash). */
export async function spawnInstance(d: Deployment, name: string, extra: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'instance-process.ts');
  const child: ChildProcess = fork(entry, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...d.env({ SVC_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`instance ${name} exited with ${code} before listening`)));
  });
  return {
    name,
    port,
    child,
    kill() {
      child.kill('SIGKILL');
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
  headers: http.IncomingHttpHeaders;
}

/**
 * A request to one instance, with the shared Host (the instances refuse other hosts). `p` is under the
 * person's API unless it starts with /functions or is /healthz or /readyz.
 */
export function request(
  port: number,
  method: string,
  p: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; host?: string } = {},
): Promise<Reply> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { host: opts.host ?? SHARED_HOST, ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const target = p.startsWith('/functions') || p === '/healthz' || p === '/readyz' ? p : MOUNTS.app + p;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text === '' ? null : JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A tool call on one instance's tool server; resolves with the JSON-RPC answer. */
export function toolCall(
  port: number,
  token: string,
  name: string,
  args: Record<string, unknown> = {},
  host?: string,
) {
  return request(port, 'POST', `${MOUNTS.mcp}`, {
    ...(host ? { host } : {}),
    token,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  });
}

/** A person with one agent paired as an MCP connection, each step on a different instance. */
export async function pairedPerson(ports: number[], email: string, host?: string) {
  const at = (i: number) => ports[i % ports.length]!;
  const on = host ? { host } : {};
  const signup = await request(at(0), 'POST', '/auth/signup', {
    ...on,
    body: { email, password: 'correct horse battery' },
  });
  if (signup.status !== 201) throw new Error(`signup: ${JSON.stringify(signup.body)}`);
  const token: string = signup.body.access_token;
  const created = await request(at(1), 'POST', '/agents', { ...on, token, body: { name: 'Juniper' } });
  if (created.status !== 201) throw new Error(`agent: ${JSON.stringify(created.body)}`);
  const paired = await request(at(2), 'POST', MOUNTS.connect, {
    ...on,
    body: {
      action: 'pair',
      code: created.body.pairing.code,
      remote_ref: 'r',
      kind: 'mcp',
      host_name: 'laptop',
    },
  });
  if (paired.status !== 200) throw new Error(`pair: ${JSON.stringify(paired.body)}`);
  return {
    token,
    userId: signup.body.user.id as string,
    agentId: created.body.agent.id as string,
    connectorToken: paired.body.connector_token as string,
  };
}
