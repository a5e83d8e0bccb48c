// Backup under write load and restore: every acknowledged write is there; restore refuses a running instance.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createSqliteStore, openServiceDatabase, type ServiceDb } from '@screen-service/store-sqlite';
import { seedAgent, seedUser } from '@screen-service/test-kit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackup, restoreBackup, WITHOUT_SECRET_NOTE } from './backup.js';
import { claimDataDir } from './instance-lock.js';

let root: string;
let dataDir: string;
let db: ServiceDb;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ops-backup-'));
  dataDir = path.join(root, 'data');
  db = openServiceDatabase(dataDir);
});
afterEach(() => {
  if (db.open) db.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function writeKeyFiles() {
  fs.mkdirSync(path.join(dataDir, 'photos', 'ab'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'photos', 'ab', 'p1.jpg'), Buffer.from([0xff, 0xd8, 1, 2, 3]));
  fs.writeFileSync(path.join(dataDir, 'secret.key'), 'k'.repeat(43), { mode: 0o600 });
  fs.writeFileSync(path.join(dataDir, 'vapid.json'), '{"publicKey":"B","privateKey":"p"}\n', { mode: 0o600 });
}

describe('svc backup / svc restore', () => {
  it('a backup taken under write load restores with every write acknowledged before it began, and every file', async () => {
    const store = createSqliteStore(db);
    const user = await seedUser(store);
    const agent = await seedAgent(store, user.id, { handle: 'load' });
    writeKeyFiles();
    const acked: string[] = [];
    const worker = new Worker(new URL('../test/fixtures/writer.mjs', import.meta.url), {
      workerData: { file: path.join(dataDir, 'svc.sqlite'), userId: user.id, agentId: agent.id },
    });
    const done = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: string) => (m === 'done' ? resolve() : acked.push(m)));
      worker.on('error', reject);
    });
    // Let the load run before and during the backup.
    while (acked.length < 200) await new Promise((r) => setTimeout(r, 5));
    const before = acked.length;
    const ackedAtStart = new Set(acked);
    const file = path.join(root, 'backup.tar.gz');
    const manifest = await createBackup({ db, dataDir, file });
    const duringBackup = acked.length - before;
    worker.postMessage('stop');
    await done;

    expect(duringBackup).toBeGreaterThan(0);
    expect(manifest.files).toEqual(['svc.sqlite', 'photos/ab/p1.jpg', 'secret.key', 'vapid.json']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    db.close();
    const target = path.join(root, 'restored');
    const report = await restoreBackup({ file, dataDir: target });
    expect(report.previous).toBeNull();
    const restored = new Database(path.join(target, 'svc.sqlite'), { readonly: true });
    const ids = new Set(
      (restored.prepare("SELECT id FROM messages WHERE id LIKE 'msg_load_%'").all() as { id: string }[]).map(
        (r) => r.id,
      ),
    );
    expect(restored.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    restored.close();
    const missing = [...ackedAtStart].filter((id) => !ids.has(id));
    expect(missing).toEqual([]);
    // A consistent snapshot: the rows form an unbroken prefix of the writer's sequence.
    expect(ids.size).toBeGreaterThanOrEqual(before);
    for (let i = 0; i < ids.size; i++) expect(ids.has(`msg_load_${i}`)).toBe(true);
    expect(fs.readFileSync(path.join(target, 'photos', 'ab', 'p1.jpg'))).toEqual(
      Buffer.from([0xff, 0xd8, 1, 2, 3]),
    );
    expect(fs.readFileSync(path.join(target, 'secret.key'), 'utf8')).toBe('k'.repeat(43));
    expect(fs.statSync(path.join(target, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(target).mode & 0o777).toBe(0o700);
  });

  it('restore refuses while a server runs on the folder and says how; once stopped it moves the old data aside', async () => {
    writeKeyFiles();
    const file = path.join(root, 'b.tar.gz');
    await createBackup({ db, dataDir, file });
    const claim = claimDataDir(dataDir);
    await expect(restoreBackup({ file, dataDir })).rejects.toMatchObject({
      code: 'INSTANCE_RUNNING',
      message: expect.stringMatching(/pid \d+.*Stop it first/),
    });
    claim.release();
    db.close();
    fs.writeFileSync(path.join(dataDir, 'secret.key'), 'changed since the backup');
    const report = await restoreBackup({ file, dataDir, now: () => Date.UTC(2026, 0, 2) });
    expect(report.previous).toBe(`${dataDir}.before-restore-2026-01-02T00-00-00-000Z`);
    expect(fs.readFileSync(path.join(report.previous!, 'secret.key'), 'utf8')).toBe(
      'changed since the backup',
    );
    expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8')).toBe('k'.repeat(43));
    expect(fs.existsSync(path.join(dataDir, 'svc-backup.json'))).toBe(false);
  });

  it('refuses a backup file that exists or lies in the data folder, and an archive that is not a backup', async () => {
    fs.writeFileSync(path.join(root, 'taken.tar.gz'), 'x');
    await expect(createBackup({ db, dataDir, file: path.join(root, 'taken.tar.gz') })).rejects.toMatchObject({
      code: 'BACKUP_EXISTS',
    });
    await expect(createBackup({ db, dataDir, file: path.join(dataDir, 'b.tar.gz') })).rejects.toMatchObject({
      code: 'BACKUP_INSIDE_DATA_DIR',
    });
    await expect(
      restoreBackup({ file: path.join(root, 'taken.tar.gz'), dataDir: path.join(root, 'n') }),
    ).rejects.toMatchObject({ code: 'INVALID_BACKUP' });
    await expect(restoreBackup({ file: path.join(root, 'none'), dataDir })).rejects.toMatchObject({
      code: 'BACKUP_NOT_FOUND',
    });
    expect(fs.readdirSync(root).filter((f) => f.includes('restoring'))).toEqual([]);
  });

  it('--without-secret leaves secret.key out, says so in the manifest, and restores everything else (issue 46)', async () => {
    writeKeyFiles();
    const file = path.join(root, 'nosecret.tar.gz');
    const manifest = await createBackup({ db, dataDir, file, withoutSecret: true });
    expect(manifest.withoutSecret).toBe(true);
    expect(manifest.files).not.toContain('secret.key');
    expect(manifest.files).toContain('vapid.json');
    db.close();
    const report = await restoreBackup({ file, dataDir });
    expect(report.manifest.withoutSecret).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'vapid.json'))).toBe(true);
    expect(WITHOUT_SECRET_NOTE).toMatch(/same SVC_SECRET .* nothing changes.*people sign in again/s);
  });
});
