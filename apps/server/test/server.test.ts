import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, loadConfig, startServer } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
function tempDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-server-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('startServer (real HTTP on 127.0.0.1)', () => {
  it('answers /healthz with the database status and 404 JSON elsewhere', async () => {
    const dataDir = tempDir();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir }, '/');
    const running = await startServer(config, pino({ level: 'silent' }));
    try {
      const res = await fetch(`http://127.0.0.1:${running.port}/healthz`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { database: { schema_version: number } };
      expect(body).toMatchObject({ ok: true, database: { ok: true } });
      expect(body.database.schema_version).toBeGreaterThanOrEqual(1);
      const missing = await fetch(`http://127.0.0.1:${running.port}/nope`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'not_found' });
    } finally {
      await running.close();
    }
    expect(fs.existsSync(path.join(dataDir, DATABASE_FILE))).toBe(true);
  });

  it('lets an exchange in progress finish during shutdown, then closes its socket', async () => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: tempDir() }, '/');
    const running = await startServer(config, pino({ level: 'silent' }));
    // The client sends half its body, waits until the server has answered, and only then do we close:
    // the socket is busy (body still arriving), so close() must wait for it rather than cut it.
    const req = http.request({
      host: '127.0.0.1',
      port: running.port,
      path: '/healthz',
      method: 'GET',
      headers: { 'content-length': '2' },
    });
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    req.write('a');
    const res = await answered;
    const body = new Promise<string>((resolve) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve(text));
    });
    const t0 = Date.now();
    const closed = running.close();
    req.end('b');
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(await body)).toMatchObject({ ok: true });
    await closed;
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

describe('dist/main.js as a process', () => {
  it('starts, logs one line with the URL, creates the database and exits 0 on SIGTERM within 5 s', async () => {
    const main = path.join(here, '..', 'dist', 'main.js');
    expect(
      fs.existsSync(main),
      'run the build first (npm test builds dependencies; nx runs build before start)',
    ).toBe(true);
    const dataDir = tempDir();
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    const started = Date.now();
    const line = await new Promise<{ url: string; msg: string }>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no start-up line within 10 s; output: ${out}`)), 10_000);
      child.stdout.on('data', () => {
        const first = out.split('\n').find((l) => l.includes('listening on'));
        if (first) {
          clearTimeout(t);
          resolve(JSON.parse(first));
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(line.msg).toMatch(/^Screen Service listening on http:\/\/localhost:\d+/);
    // The default base URL is localhost, which a phone cannot open: the next line says how to fix it.
    await expect.poll(() => out.includes('A phone cannot open')).toBe(true);
    const hint = JSON.parse(out.split('\n').find((l) => l.includes('A phone cannot open'))!) as {
      msg: string;
    };
    expect(hint.msg).toMatch(
      new RegExp(
        `^A phone cannot open ${line.url}: .* SVC_BASE_URL=http://[\\d.]+:${new URL(line.url).port} HOST=0\\.0\\.0\\.0 `,
      ),
    );
    const res = await fetch(`${line.url.replace('localhost', '127.0.0.1')}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    expect(fs.existsSync(path.join(dataDir, DATABASE_FILE))).toBe(true);

    const stopAt = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(5_000);
  });
});
