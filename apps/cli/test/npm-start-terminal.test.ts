// The README's `npm start` in a real pseudo-terminal, stopped with Ctrl-C ten times in a row: the terminal
// sends SIGINT to the whole foreground group (npm and the server), npm forwards it again, and every run
// must still stop cleanly: the waiting svc_answers answered, "stopped" logged, no pid file, no WAL left.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from './run-svc.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const METRICS_TOKEN = 'terminal-test-metrics-token';
let dataDir: string;
let connectorToken: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  try {
    execFileSync('script', ['--version'], { stdio: 'pipe' });
  } catch {
    throw new Error(
      'These tests run `npm start` in a pseudo-terminal with `script` from util-linux: apt-get install -y util-linux',
    );
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-terminal-'));
  const env = { SVC_DATA_DIR: dataDir };
  const added = await runSvc(
    ['user', 'add', '--email', 'terminal@example.com'],
    env,
    'a long passphrase for the terminal test\n',
  );
  expect(added.code, added.stderr).toBe(0);
  const connected = await runSvc(['connect', '--email', 'terminal@example.com', '--agent', 'Terminal'], env);
  expect(connected.code, connected.stderr).toBe(0);
  connectorToken = JSON.parse(connected.stdout).connector_token;
});
afterAll(() => {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * `npm start` from the repository root as a person types it, in a pseudo-terminal that `script` holds.
 * `exec` puts npm where the person's interactive shell would start it: npm and the server are the
 * terminal's foreground process group. The environment is the test's minus npm's and nx's own variables
 * (a fresh terminal has none), plus a temporary data folder and a free port.
 */
function npmStartInTerminal(skipBuild: boolean) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|NX_)/i.test(k)) env[k] = v;
  Object.assign(env, {
    SHELL: '/bin/sh',
    SVC_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SVC_METRICS_TOKEN: METRICS_TOKEN,
    ...(skipBuild ? { SVC_SKIP_BUILD: '1' } : {}),
  });
  const child = spawn('script', ['-q', '-e', '-c', 'exec npm start', '/dev/null'], {
    cwd: root,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.push(child);
  let screen = '';
  child.stdout.on('data', (c) => {
    screen += c;
  });
  child.stderr.on('data', (c) => {
    screen += c;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exit,
    screen: () => stripVTControlCharacters(screen),
    /** Ctrl-C typed at the terminal: the line discipline sends SIGINT to the foreground process group. */
    ctrlC: () => child.stdin.write('\x03'),
  };
}

async function answersWaiters(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return Number(/^svc_answers_waiters (\d+)/m.exec(await res.text())?.[1] ?? 0);
}

describe('npm start in a terminal, stopped with Ctrl-C', () => {
  // Run 1 goes through the quiet build (up to date: nx only checks its cache); runs 2-10 reuse it.
  it.each(Array.from({ length: 10 }, (_, i) => i + 1))(
    'run %i of 10 stops cleanly',
    { timeout: 90_000 },
    async (n) => {
      const term = npmStartInTerminal(n > 1);
      await expect
        .poll(() => /listening on http:\/\/localhost:\d+/.test(term.screen()), {
          timeout: 60_000,
          interval: 50,
        })
        .toBe(true);
      const port = Number(/listening on http:\/\/localhost:(\d+)/.exec(term.screen())![1]);

      // A client waiting in svc_answers when the person presses Ctrl-C.
      const mcp = new Client({ name: 'terminal-test', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/functions/v1/svc-mcp`), {
          requestInit: { headers: { authorization: `Bearer ${connectorToken}` } },
        }),
      );
      const waiting = mcp.callTool({ name: 'svc_answers', arguments: { wait: 25 } });
      await expect.poll(() => answersWaiters(port), { timeout: 10_000, interval: 25 }).toBe(1);
      const pressed = Date.now();
      term.ctrlC();

      const answer = await waiting;
      expect(answer.isError).toBeFalsy();
      expect((answer.content as { text: string }[])[0]!.text).toMatch(/Call svc_answers again \(wait=25\)/);
      // Told to retry at once, not held to the end of its 25 s wait.
      expect(Date.now() - pressed).toBeLessThan(10_000);
      await mcp.close();

      expect(await term.exit).toBe(0);
      const screen = term.screen();
      expect(screen).toMatch(/shutting down\s+signal: "SIGINT"/);
      expect(screen).toContain('INFO: stopped');
      expect(screen).not.toMatch(/still shutting down|stopping at once|shutdown failed/);
      expect(fs.existsSync(path.join(dataDir, 'svc.pid'))).toBe(false);
      expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('-wal') || f.endsWith('-shm'))).toEqual([]);
    },
  );
});
