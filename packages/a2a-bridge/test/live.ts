// Test harness for the live service: the real server (in this process or as a child process that can be
// SIGKILLed), the person's side over the person API, and svc-a2a as a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSse } from '@screen-service/io-kit/sse';
import { MOUNTS } from '@screen-service/registry/mounts';
import { freePort } from '../../../config/free-port.js';

export { freePort };

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const SERVICE = fileURLToPath(new URL('./fixtures/service-child.ts', import.meta.url));

/** The live service. */
export interface LiveService {
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts the real server in this process over a fresh data folder. */
export async function startService(): Promise<LiveService> {
  const { loadConfig, startServer } = await import('@screen-service/server');
  const pino = (await import('pino')).default;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-a2a-live-'));
  const port = await freePort();
  const config = loadConfig(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_BASE_URL: `http://127.0.0.1:${port}`,
    },
    '/',
  );
  const running = await startServer(config, pino({ level: 'silent' }));
  return {
    base: `http://127.0.0.1:${running.port}`,
    dataDir,
    async close() {
      await running.close(500);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server as a child process on a fixed port and data folder (so it can be killed and started again). */
export function startServiceProcess(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVICE, String(port), dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('listening')) resolve(child);
    });
    child.stderr!.on('data', (d) => {
      out += String(d);
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}: ${out}`)));
  });
}

/** A JSON call to the service. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in the tests
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + (path.startsWith('/functions') ? path : MOUNTS.app + path), {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** One row of a thread as the person's API shows it. */
export interface ThreadRow {
  id: string;
  sender: 'agent' | 'person';
  kind: string;
  body: string;
  meta: { turn?: string[]; text?: string };
  screen: { id: string; lines: string } | null;
}

/** The person: signs up, adds agents (reading the code), sends, reads the thread. */
export async function signUpPerson(base: string, email: string) {
  const r = await call(base, 'POST', '/auth/signup', { body: { email, password: 'correct horse battery' } });
  if (r.status !== 201) throw new Error(`signup failed: ${JSON.stringify(r.body)}`);
  const token = r.body.access_token as string;
  return {
    token,
    async addAgent(name: string): Promise<{ agentId: string; code: string }> {
      const created = await call(base, 'POST', '/agents', { token, body: { name } });
      return { agentId: created.body.agent.id, code: created.body.pairing.code };
    },
    async say(agentId: string, text: string): Promise<string> {
      const sent = await call(base, 'POST', `/agents/${agentId}/messages`, { token, body: { text } });
      if (sent.status !== 201) throw new Error(`say failed: ${JSON.stringify(sent.body)}`);
      return sent.body.id as string;
    },
    async thread(agentId: string): Promise<ThreadRow[]> {
      const page = await call(base, 'GET', `/agents/${agentId}/messages?limit=100`, { token });
      return [...(page.body.messages as ThreadRow[])].sort(
        (a, b) => (a as never as { seq: number }).seq - (b as never as { seq: number }).seq,
      );
    },
    async answers(agentId: string): Promise<ThreadRow[]> {
      return (await this.thread(agentId)).filter((m) => m.sender === 'agent');
    },
    /** Waits for the agent's answer to one row (an agent row whose `meta.turn` names it). */
    async answerTo(agentId: string, rowId: string, ms = 20_000): Promise<ThreadRow> {
      return waitFor(
        `the answer to ${rowId}`,
        async () => {
          const found = (await this.answers(agentId)).filter((m) => m.meta.turn?.includes(rowId));
          return found[0];
        },
        ms,
      );
    },
    agent: async (agentId: string) => (await call(base, 'GET', `/agents/${agentId}`, { token })).body,
    /** The phone's live events (the person's stream), collected until `close`. */
    async events() {
      const stop = new AbortController();
      const seen: { event: string; data: Record<string, unknown> }[] = [];
      const res = await fetch(`${base}${MOUNTS.app}/stream`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: stop.signal,
      });
      void (async () => {
        for await (const ev of readSse(res.body!)) seen.push({ event: ev.event, data: JSON.parse(ev.data) });
      })().catch(() => {});
      return { seen, close: () => stop.abort() };
    },
  };
}

/** Retries `probe` (which may throw while not ready) until it yields a value, or fails after `ms`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** svc-a2a as a child process. */
export interface BridgeProcess {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  exit: Promise<number | null>;
}

/** Starts `svc-a2a <args>` with its folder in `dir`. */
export function startBridge(args: string[], dir: string, env: Record<string, string> = {}): BridgeProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, SVC_A2A_HOME: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => {
    out.stdout += String(d);
  });
  child.stderr!.on('data', (d) => {
    out.stderr += String(d);
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out, exit };
}

/** Runs `svc-a2a <args>` to its end. */
export async function bridgeCli(args: string[], dir: string, env: Record<string, string> = {}) {
  const p = startBridge(args, dir, env);
  const code = await p.exit;
  return { code, ...p.out };
}

/** A fresh folder for a bridge. */
export function bridgeDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-a2a-home-'));
}
