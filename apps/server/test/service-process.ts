// The real built server as a child process on 127.0.0.1 (SQLite in a temp folder), and the person's side over
// HTTP: the harness of the tests of packages that talk to a running service (the agent SDK, the relay).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../config/free-port.js';

/** The built server entry; nx builds @screen-service/server before this package's tests. */
export const SERVER_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
export const APP = '/functions/v1/svc-app';
export const CONNECT = '/functions/v1/svc-connect';
export const MCP = '/functions/v1/svc-mcp';

export interface Service {
  base: string;
  mcpUrl: string;
  dataDir: string;
  /** SIGKILL, then start again on the same data folder and port. */
  restart(): Promise<void>;
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** svc_answers calls the server holds open right now (its `/metrics`). */
  waiters(): Promise<number>;
  /** HTTP requests the server refused 429 (too many calls) so far (its `/metrics`). */
  refusedForRate(): Promise<number>;
}

const METRICS_TOKEN = 'service-process-tests-metrics-token';

/** Starts `node apps/server/dist/main.js` and resolves once `/healthz` answers 200. */
export async function startService(env: Record<string, string> = {}): Promise<Service> {
  if (!fs.existsSync(SERVER_MAIN))
    throw new Error(
      `Build the server first: npx nx run @screen-service/server:build (${SERVER_MAIN} is missing)`,
    );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-process-'));
  let port = await freePort();
  let base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let tail = '';
  const spawnOnce = async () => {
    const c = spawn(process.execPath, [SERVER_MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SVC_DATA_DIR: dataDir,
        SVC_BASE_URL: base,
        LOG_LEVEL: 'warn',
        SVC_METRICS_TOKEN: METRICS_TOKEN,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    c.stderr?.on('data', (b: Buffer) => {
      tail = (tail + b.toString()).slice(-4000);
    });
    child = c;
    const until = Date.now() + 30_000;
    for (;;) {
      if (c.exitCode !== null) throw new Error(`The server exited while starting:\n${tail}`);
      const ok = await fetch(`${base}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      if (Date.now() > until) throw new Error(`The server did not start within 30 s:\n${tail}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  // A free port is only free until someone binds it: when another test's process took it first, the first
  // start picks another (a restart keeps the port the service was reached at).
  for (let attempt = 1; ; attempt++) {
    try {
      await spawnOnce();
      break;
    } catch (err) {
      if (attempt >= 3 || !/already in use/.test(tail)) throw err;
      tail = '';
      port = await freePort();
      base = `http://127.0.0.1:${port}`;
    }
  }
  return {
    base,
    mcpUrl: `${base}${MCP}`,
    dataDir,
    async restart() {
      await end('SIGKILL');
      await spawnOnce();
    },
    kill: () => end('SIGKILL'),
    async waiters() {
      const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = (await r.text()).split('\n').find((l) => l.startsWith('svc_answers_waiters '));
      return Number(line?.split(' ')[1] ?? Number.NaN);
    },
    async refusedForRate() {
      const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      return (await r.text())
        .split('\n')
        .filter((l) => l.startsWith('svc_http_requests_total{') && l.includes('status="429"'))
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    },
    async stop() {
      await end('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function json(r: Response) {
  const text = await r.text();
  // biome-ignore lint/suspicious/noExplicitAny: test answers are checked field by field
  return (text ? JSON.parse(text) : null) as any;
}

/** A person who signed up and added an agent: its 6-digit pairing code, and the person's side. */
export async function newPerson(base: string, name = 'Helper') {
  const email = `p-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'correct horse battery staple';
  const signup = await fetch(`${base}${APP}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
  const personToken = (await json(signup)).access_token as string;
  const auth = { authorization: `Bearer ${personToken}`, 'content-type': 'application/json' };
  const added = await fetch(`${base}${APP}/agents`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name }),
  });
  const agent = await json(added);
  if (added.status !== 201) throw new Error(`add agent: ${added.status} ${JSON.stringify(agent)}`);
  const agentId = agent.agent.id as string;
  return {
    email,
    password,
    personToken,
    agentId,
    code: agent.pairing.code as string,
    person: personSide(base, personToken, agentId),
  };
}

/** A person with an agent paired as a tool connection: the token an agent author holds, and the person's side. */
export async function pairedAgent(base: string, name = 'Helper') {
  const made = await newPerson(base, name);
  const paired = await fetch(`${base}${CONNECT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'pair',
      code: made.code,
      remote_ref: 'main',
      kind: 'mcp',
      host_name: name,
    }),
  });
  const pair = await json(paired);
  if (paired.status !== 200) throw new Error(`pair: ${paired.status} ${JSON.stringify(pair)}`);
  return { ...made, token: pair.connector_token as string };
}

/** The person's API: read the thread, tap, upload a photo. */
export function personSide(base: string, token: string, agentId: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    async messages(): Promise<
      {
        id: string;
        seq: number;
        kind: string;
        body: string;
        meta: Record<string, unknown>;
        screen: { id: string; lines: string } | null;
      }[]
    > {
      const r = await fetch(`${base}${APP}/agents/${agentId}/messages`, { headers });
      if (r.status !== 200) throw new Error(`messages: ${r.status}`);
      return (await json(r)).messages;
    },
    /** The screens in the thread, oldest first: id, lines and the chat line under each. */
    async screens(): Promise<{ id: string; lines: string }[]> {
      const list = await this.messages();
      return list
        .filter((m) => m.screen)
        .sort((a, b) => a.seq - b.seq)
        .flatMap((m) => (m.screen ? [m.screen] : []));
    },
    /** Waits (polling the person's API, as the app's list does) until a screen not in `seen` is there. */
    async nextScreen(seen: Set<string>): Promise<{ id: string; lines: string }> {
      const until = Date.now() + 20_000;
      for (;;) {
        const fresh = (await this.screens()).find((s) => !seen.has(s.id));
        if (fresh) {
          seen.add(fresh.id);
          return fresh;
        }
        if (Date.now() > until) throw new Error('no new screen within 20 s');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async tap(screenId: string, event: Record<string, unknown>, photoIds?: string[]) {
      const r = await fetch(`${base}${APP}/agents/${agentId}/taps`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ screen_id: screenId, event, ...(photoIds ? { photo_ids: photoIds } : {}) }),
      });
      if (r.status !== 201) throw new Error(`tap: ${r.status} ${await r.text()}`);
      return json(r);
    },
    /** A tap whatever the answer: the status and the body (a refusal's `error` names why). */
    async tapRaw(screenId: string, event: Record<string, unknown>) {
      const r = await fetch(`${base}${APP}/agents/${agentId}/taps`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ screen_id: screenId, event }),
      });
      return { status: r.status, body: await json(r) };
    },
    async say(text: string) {
      const r = await fetch(`${base}${APP}/agents/${agentId}/messages`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      if (r.status !== 201) throw new Error(`say: ${r.status} ${await r.text()}`);
    },
    async uploadPhoto(bytes: Uint8Array<ArrayBuffer>) {
      const r = await fetch(`${base}${APP}/agents/${agentId}/photos`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'image/png' },
        body: bytes,
      });
      if (r.status !== 201) throw new Error(`photo: ${r.status} ${await r.text()}`);
      return (await json(r)).id as string;
    },
  };
}

/** A 1x1 PNG. */
export const PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
