// Start-up and shutdown as processes, the same for `npm start` (apps/server/dist/main.js) and `svc serve`
// (dist/svc.js serve): the Node guard on an older Node, the port-clash message, the shutdown log.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
// The server app's build (this app depends on it, so nx builds it first).
const serverDist = path.join(here, '..', '..', 'server', 'dist');
const launcher = path.join(here, '..', 'bin', 'svc.mjs');
let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-start-up-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The two ways to serve: `npm start` runs dist/main.js, `npx svc serve` runs dist/svc.js serve. */
const WAYS = {
  'npm start': (port: number) => ({ args: [path.join(serverDist, 'main.js')], env: { PORT: String(port) } }),
  'svc serve': (port: number) => ({
    args: [path.join(dist, 'svc.js'), 'serve', '--port', String(port)],
    env: {},
  }),
} as const;

function start(
  way: keyof typeof WAYS,
  port: number,
  folder = dataDir,
): ChildProcess & { output: () => string } {
  const { args, env } = WAYS[way](port);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SVC_DATA_DIR: folder, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c;
  });
  child.stderr?.on('data', (c) => {
    out += c;
  });
  return Object.assign(child, { output: () => out });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** pino's JSON lines of a run, parsed. */
function logLines(output: string): { msg: string; [k: string]: unknown }[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** A Node on this machine whose major is not 24 (the machine's own Node), if there is one. */
function otherNode(): string | undefined {
  let candidates: string[] = [];
  try {
    candidates = execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n');
  } catch {
    // `which` missing or nothing found: only the fixed paths below.
  }
  for (const node of [...candidates, '/usr/local/bin/node', '/usr/bin/node']) {
    if (!node || !fs.existsSync(node)) continue;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    if (!version.startsWith('v24.')) return node;
  }
  return undefined;
}

describe('the Node guard runs before anything that needs Node 24', () => {
  // The machine's own older Node when it has one (this is where `Object.groupBy is not a function`
  // used to crash); else Node 24 told by a preload that it is 20.0.0, which reaches the same check.
  const old = otherNode();
  const run = (file: string, args: string[]) => {
    const argv = old
      ? [file, ...args]
      : [
          '--import',
          "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.0.0'})",
          file,
          ...args,
        ];
    try {
      execFileSync(old ?? process.execPath, argv, {
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env },
      });
      return { code: 0, stderr: '' };
    } catch (err) {
      const e = err as { status: number; stderr: string };
      return { code: e.status, stderr: e.stderr };
    }
  };

  it.each([
    [
      'apps/server/dist/main.js',
      path.join(serverDist, 'main.js'),
      [],
      /Screen Service needs Node 24 but this is Node \d+.*`npm start`/,
    ],
    [
      'dist/svc.js --help',
      path.join(dist, 'svc.js'),
      ['--help'],
      /svc needs Node 24 but this is Node \d+.*`npx svc`/,
    ],
    ['bin/svc.mjs --help', launcher, ['--help'], /svc needs Node 24 but this is Node \d+.*`npx svc`/],
  ])('%s exits 1 with the message, no stack trace', (_name, file, args, message) => {
    const r = run(file, args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/groupBy|TypeError|\n\s+at /);
  });
});

describe.each(Object.keys(WAYS) as (keyof typeof WAYS)[])('%s', (way) => {
  it('says the port is taken, in one message without a stack trace, and exits 2 (configuration)', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const child = start(way, port);
      expect(await exited(child)).toBe(2);
      const out = child.output();
      expect(out).toContain(`Port ${port} is already in use (127.0.0.1).`);
      expect(out).toContain('`npm start` or `npx svc serve`: run one or the other');
      expect(out).not.toMatch(/\n\s+at |EADDRINUSE: address/);
    } finally {
      holder.close();
    }
  });

  it('logs "shutting down" and "stopped" on SIGINT and exits 0', async () => {
    const child = start(way, 0);
    await expect
      .poll(() => logLines(child.output()).some((l) => l.msg.includes('listening on')), { timeout: 15_000 })
      .toBe(true);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
    const lines = logLines(child.output());
    expect(lines.map((l) => l.msg).slice(-2)).toEqual(['shutting down', 'stopped']);
    expect(lines.at(-2)).toMatchObject({ signal: 'SIGINT' });
  });
});

describe('one server per data folder', () => {
  /** The start-up line's URL once the server listens. */
  async function listening(child: ChildProcess & { output: () => string }): Promise<string> {
    await expect
      .poll(() => logLines(child.output()).some((l) => l.msg.includes('listening on')), { timeout: 15_000 })
      .toBe(true);
    return String(logLines(child.output()).find((l) => l.msg.includes('listening on'))!.url);
  }

  it('refuses a second server on the folder (another port) with exit 3 naming the first; a crash leaves it free', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-one-folder-'));
    const running: ChildProcess[] = [];
    try {
      const first = start('npm start', 0, folder);
      running.push(first);
      const url = await listening(first);
      expect(JSON.parse(fs.readFileSync(path.join(folder, 'svc.pid'), 'utf8'))).toMatchObject({
        pid: first.pid,
        url,
      });
      // Both ways of serving are refused the same way, each on a port of its own.
      for (const way of ['svc serve', 'npm start'] as const) {
        const second = start(way, 0, folder);
        expect(await exited(second)).toBe(3);
        const out = second.output();
        expect(out).toContain(
          `Another Screen Service is already serving the data folder ${folder} (pid ${first.pid}, ${url}, started `,
        );
        expect(out).toContain(`Stop that one first (Ctrl-C in its terminal, or \`kill ${first.pid}\`)`);
        expect(out).toContain('SVC_DATA_DIR');
        expect(out).not.toMatch(/listening on|\n\s+at /);
      }
      // The first one never noticed: it still answers, and its record is intact.
      expect((await fetch(`${url.replace('localhost', '127.0.0.1')}/healthz`)).status).toBe(200);
      expect(JSON.parse(fs.readFileSync(path.join(folder, 'svc.pid'), 'utf8'))).toMatchObject({
        pid: first.pid,
      });

      // SIGKILL leaves the record behind, but not the lock: the next server starts at once.
      first.kill('SIGKILL');
      await exited(first);
      expect(fs.existsSync(path.join(folder, 'svc.pid'))).toBe(true);
      const next = start('svc serve', 0, folder);
      running.push(next);
      await listening(next);
      expect(JSON.parse(fs.readFileSync(path.join(folder, 'svc.pid'), 'utf8'))).toMatchObject({
        pid: next.pid,
      });
      next.kill('SIGINT');
      expect(await exited(next)).toBe(0);
      expect(fs.existsSync(path.join(folder, 'svc.pid'))).toBe(false);
    } finally {
      for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
