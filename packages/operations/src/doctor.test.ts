// svc doctor's checks on a healthy data folder and on broken ones, against a real HTTP server.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openServiceDatabase } from '@screen-service/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DoctorCheck, runDoctor } from './doctor.js';

let root: string;
let dataDir: string;
let server: http.Server;
let baseUrl: string;
let dateOffsetMs = 0;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ops-doctor-'));
  dataDir = path.join(root, 'data');
  openServiceDatabase(dataDir).close();
  fs.writeFileSync(path.join(dataDir, 'vapid.json'), '{"publicKey":"BAbc","privateKey":"x"}\n', {
    mode: 0o600,
  });
  dateOffsetMs = 0;
  server = http.createServer((req, res) => {
    res.setHeader('date', new Date(Date.now() + dateOffsetMs).toUTCString());
    res.statusCode = req.url === '/readyz' ? 200 : 404;
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(root, { recursive: true, force: true });
});

const byName = (checks: DoctorCheck[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('svc doctor', () => {
  it('a healthy deployment passes every check', async () => {
    const checks = await runDoctor({ dataDir, baseUrl, nodeVersion: '24.21.0' });
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['node', 'ok'],
      ['data-dir', 'ok'],
      ['database', 'ok'],
      ['push-keys', 'ok'],
      ['base-url', 'ok'],
      ['clock', 'ok'],
    ]);
    expect(byName(checks).database!.detail).toMatch(/integrity ok, schema version \d+/);
  });

  it('wrong permissions: names the folder and the files and gives the chmod', async () => {
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'svc.sqlite'), 0o644);
    const c = byName(await runDoctor({ dataDir, baseUrl }))['data-dir']!;
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('mode 755');
    expect(c.detail).toContain('svc.sqlite is mode 644');
    expect(c.fix).toBe(`chmod 700 ${dataDir}; chmod 600 ${path.join(dataDir, 'svc.sqlite')}`);
  });

  it('a corrupted database file fails with the restore advice', async () => {
    const file = path.join(dataDir, 'svc.sqlite');
    const bytes = fs.readFileSync(file);
    // Overwrite pages past the header with noise: SQLite still opens it, integrity_check finds the damage.
    for (let i = 4096; i < bytes.length; i += 7) bytes[i] = (i * 31) & 0xff;
    fs.writeFileSync(file, bytes);
    const c = byName(await runDoctor({ dataDir, baseUrl })).database!;
    expect(c.status).toBe('fail');
    expect(c.fix).toMatch(/svc restore/);
  });

  it('a file that is not a database at all fails too', async () => {
    fs.writeFileSync(path.join(dataDir, 'svc.sqlite'), 'hello, not sqlite '.repeat(300));
    const c = byName(await runDoctor({ dataDir, baseUrl })).database!;
    expect(c).toMatchObject({ status: 'fail', fix: expect.stringMatching(/svc restore/) });
    expect(c.detail).toMatch(/cannot be read as a database/);
  });

  it('old Node, a missing folder, unreadable push keys, an unreachable base URL and a skewed clock', async () => {
    const gone = byName(
      await runDoctor({ dataDir: path.join(root, 'nope'), baseUrl, nodeVersion: '20.20.2' }),
    );
    expect(gone.node).toMatchObject({ status: 'fail', fix: expect.stringMatching(/npx svc/) });
    expect(gone['data-dir']).toMatchObject({ status: 'fail', fix: expect.stringMatching(/SVC_DATA_DIR/) });

    fs.writeFileSync(path.join(dataDir, 'vapid.json'), 'not json');
    dateOffsetMs = 5 * 60_000;
    const skewed = byName(await runDoctor({ dataDir, baseUrl }));
    expect(skewed['push-keys']!.status).toBe('fail');
    expect(skewed.clock).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/(299|300|301) s off/),
    });

    fs.rmSync(path.join(dataDir, 'vapid.json'));
    await new Promise((r) => server.close(r));
    server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const down = byName(await runDoctor({ dataDir, baseUrl, timeoutMs: 500 }));
    expect(down['base-url']).toMatchObject({ status: 'fail', fix: expect.stringMatching(/svc serve/) });
    expect(down['push-keys']).toMatchObject({
      status: 'warn',
      fix: expect.stringMatching(/SVC_VAPID_SUBJECT/),
    });
  });
});
