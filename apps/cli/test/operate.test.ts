import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type RunningServer, startServer } from '@screen-service/server';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from './run-svc.js';

let root: string;
let dataDir: string;
let running: RunningServer | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-ops-'));
  dataDir = path.join(root, 'data');
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_SIGNUP: 'closed',
      SVC_BASE_URL: 'http://127.0.0.1:0',
    },
    '/',
  );
  running = await startServer(config, pino({ level: 'silent' }));
  env = { SVC_DATA_DIR: dataDir, SVC_BASE_URL: running.url, SVC_SIGNUP: 'closed', LOG_LEVEL: 'silent' };
});
afterAll(async () => {
  await running?.close(200);
  fs.rmSync(root, { recursive: true, force: true });
});

function svc(args: string[], stdin = '') {
  return runSvc(args, env, stdin);
}

// Each test spawns several `svc` processes (each loads the whole service): generous on a busy machine.
describe('svc backup / restore / doctor', { timeout: 120_000 }, () => {
  it('--help for each', async () => {
    for (const cmd of ['backup', 'restore', 'doctor']) {
      const r = await svc([cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^svc ${cmd}`));
    }
    expect((await svc(['--help'])).stdout).toMatch(/backup FILE/);
    const missing = await svc(['backup']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/A file is required/);
  });

  it('user add works with SVC_SIGNUP=closed; backup while the server runs; restore refuses it and says how', async () => {
    const added = await svc(['user', 'add', '--email', 'ops@example.com'], 'a long passphrase\n');
    expect(added.code, added.stderr).toBe(0);
    fs.writeFileSync(path.join(dataDir, 'secret.key'), 's'.repeat(43), { mode: 0o600 });
    const file = path.join(root, 'backup.tar.gz');
    const backup = await svc(['backup', file]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file, files: 2 });

    const refused = await svc(['restore', file]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(new RegExp(`pid ${process.pid}.*Stop it first`));

    await running!.close(200);
    running = undefined;
    fs.rmSync(path.join(dataDir, 'secret.key'));
    const restored = await svc(['restore', file]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout).previous).toMatch(/data\.before-restore-/);
    expect(restored.stderr).toMatch(/Start the service/);
    expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8')).toBe('s'.repeat(43));
    const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true });
    expect(db.prepare('SELECT email FROM users').pluck().all()).toEqual(['ops@example.com']);
    db.close();
  });

  it('doctor: healthy with the server up (exit 0); wrong permissions and a corrupted file fail with the fix', async () => {
    running = await startServer(
      loadConfig(
        { PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_BASE_URL: 'http://127.0.0.1:0' },
        '/',
      ),
      pino({ level: 'silent' }),
    );
    env.SVC_BASE_URL = running.url;
    const healthy = await svc(['doctor']);
    expect(healthy.stdout).toMatch(/^ok {3}node/m);
    expect(healthy.stdout).toMatch(/^ok {3}database {2}integrity ok/m);
    expect(healthy.stdout).toMatch(/^ok {3}base-url/m);
    expect(healthy.stdout).toMatch(/No problems found/);
    expect(healthy.code, healthy.stdout).toBe(0);
    await running.close(200);
    running = undefined;

    fs.chmodSync(dataDir, 0o755);
    const file = path.join(dataDir, 'svc.sqlite');
    const bytes = fs.readFileSync(file);
    for (let i = 4096; i < bytes.length; i += 5) bytes[i] = (i * 13) & 0xff;
    fs.writeFileSync(file, bytes);
    const broken = await svc(['doctor']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^FAIL data-dir .*mode 755/m);
    expect(broken.stdout).toContain(`fix: chmod 700 ${dataDir}`);
    expect(broken.stdout).toMatch(/^FAIL database/m);
    expect(broken.stdout).toMatch(/fix: Stop the service and restore the newest backup/);
    expect(broken.stdout).toMatch(/^FAIL base-url .*not reachable/m);
  });
});
