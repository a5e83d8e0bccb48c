// Backup and restore of a data folder: the database through SQLite's online backup plus every other file
// (photos, secret.key, vapid.json, ...) in one gzipped tar with a manifest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  backupDatabase,
  DATABASE_FILE,
  inspectDatabase,
  SECRET_FILE,
  type ServiceDb,
} from '@screen-service/store-sqlite';
import * as tar from 'tar';
import { OperationsError } from './errors.js';
import { describeInstance, LOCK_FILE, PID_FILE, runningInstance } from './instance-lock.js';

/** The manifest's name inside an archive. */
export const MANIFEST_FILE = 'svc-backup.json';

/** What an archive says about itself. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  schemaVersion: number;
  /** Every file of the archive besides the manifest, relative, with `/` separators. */
  files: string[];
  /**
   * True when made with `withoutSecret`: `secret.key` is not in it. Restored, the service signs with
   * SVC_SECRET if set (the same key: nothing changes), else with a new key: every sign-in and photo link
   * made before stops working and people sign in again; their accounts, agents and threads are intact.
   */
  withoutSecret?: boolean;
}

/** What restoring an archive made without the secret means, for the operator (restore and the CLI say it). */
export const WITHOUT_SECRET_NOTE =
  'This backup holds no secret.key. Start the service with the same SVC_SECRET as before and nothing changes; ' +
  'without it a new key is made: every sign-in and photo link stops working and people sign in again ' +
  '(accounts, agents, threads and connections are intact).';

// The live database's companions, the pid record and the lock are never copied: the database comes from
// the online backup, and a restored folder has no running server yet.
const SKIP = new Set([
  DATABASE_FILE,
  `${DATABASE_FILE}-wal`,
  `${DATABASE_FILE}-shm`,
  `${DATABASE_FILE}-journal`,
  PID_FILE,
  LOCK_FILE,
]);

/** Options of {@link createBackup}. */
export interface CreateBackupOptions {
  /** An open connection to the data folder's database (the server's own, or a second one). */
  db: ServiceDb;
  dataDir: string;
  /** The archive to write (`.tar.gz`); refused when it exists or lies inside the data folder. */
  file: string;
  /** Leaves `secret.key` out (an archive that may travel further than the key should); see {@link WITHOUT_SECRET_NOTE}. */
  withoutSecret?: boolean;
  now?: () => number;
}

/**
 * Writes the archive: a consistent copy of the database taken while others write, then every other file
 * of the data folder. Resolves with the manifest.
 *
 * @throws {OperationsError} `BACKUP_EXISTS`, `BACKUP_INSIDE_DATA_DIR`.
 */
export async function createBackup(options: CreateBackupOptions): Promise<BackupManifest> {
  const file = path.resolve(options.file);
  const dataDir = path.resolve(options.dataDir);
  if (fs.existsSync(file)) {
    throw new OperationsError('BACKUP_EXISTS', `${file} already exists; give a new file name.`);
  }
  if (file.startsWith(`${dataDir}${path.sep}`)) {
    throw new OperationsError(
      'BACKUP_INSIDE_DATA_DIR',
      `${file} is inside the data folder ${dataDir}; write the backup somewhere else.`,
    );
  }
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-backup-'));
  try {
    fs.chmodSync(staging, 0o700);
    await backupDatabase(options.db, path.join(staging, DATABASE_FILE));
    const others = listFiles(dataDir).filter(
      (f) => !SKIP.has(f) && !(options.withoutSecret && f === SECRET_FILE),
    );
    for (const rel of others) {
      const to = path.join(staging, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      fs.copyFileSync(path.join(dataDir, rel), to);
      fs.chmodSync(to, fs.statSync(path.join(dataDir, rel)).mode & 0o777);
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date((options.now ?? Date.now)()).toISOString(),
      schemaVersion: inspectDatabase(path.join(staging, DATABASE_FILE)).schemaVersion,
      files: [DATABASE_FILE, ...others],
      ...(options.withoutSecret ? { withoutSecret: true } : {}),
    };
    fs.writeFileSync(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.create(
      { gzip: true, file, cwd: staging, portable: true, mode: 0o600 } as tar.TarOptionsWithAliasesAsyncFile,
      [MANIFEST_FILE, ...manifest.files],
    );
    fs.chmodSync(file, 0o600);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Options of {@link restoreBackup}. */
export interface RestoreBackupOptions {
  file: string;
  dataDir: string;
  now?: () => number;
}

/** What a restore did. */
export interface RestoreReport {
  manifest: BackupManifest;
  /** Where the data folder's previous contents were moved, or null when there were none. */
  previous: string | null;
}

/**
 * Restores an archive into `dataDir`. Refuses while a server runs on that folder. The archive is unpacked
 * and checked (manifest, every listed file, database integrity) beside the folder first; only then is
 * the old folder moved aside to `<dataDir>.before-restore-<time>` and the restored one put in its place.
 *
 * @throws {OperationsError} `INSTANCE_RUNNING`, `BACKUP_NOT_FOUND`, `INVALID_BACKUP`.
 */
export async function restoreBackup(options: RestoreBackupOptions): Promise<RestoreReport> {
  const file = path.resolve(options.file);
  const dataDir = path.resolve(options.dataDir);
  const running = runningInstance(dataDir);
  if (running) {
    throw new OperationsError(
      'INSTANCE_RUNNING',
      `A Screen Service (${describeInstance(running)}) is serving ${dataDir}. ` +
        'Stop it first (Ctrl-C, or `systemctl stop screen-service`), run the restore again, then start it.',
    );
  }
  if (!fs.existsSync(file)) throw new OperationsError('BACKUP_NOT_FOUND', `No backup at ${file}.`);
  const parent = path.dirname(dataDir);
  fs.mkdirSync(parent, { recursive: true });
  const staging = fs.mkdtempSync(path.join(parent, `.${path.basename(dataDir)}.restoring-`));
  try {
    fs.chmodSync(staging, 0o700);
    try {
      await tar.extract({ file, cwd: staging, strict: true } as tar.TarOptionsWithAliasesAsyncFile);
    } catch (err) {
      throw invalid(file, `it is not a gzipped tar archive (${(err as Error).message})`);
    }
    const manifest = readManifest(staging, file);
    for (const rel of manifest.files) {
      if (!fs.existsSync(path.join(staging, rel))) throw invalid(file, `${rel} is listed but missing`);
    }
    const report = inspectDatabase(path.join(staging, DATABASE_FILE));
    if (report.integrity.join() !== 'ok') {
      throw invalid(file, `its database fails the integrity check: ${report.integrity.join('; ')}`);
    }
    fs.rmSync(path.join(staging, MANIFEST_FILE));
    let previous: string | null = null;
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      const stamp = new Date((options.now ?? Date.now)()).toISOString().replace(/[:.]/g, '-');
      previous = `${dataDir}.before-restore-${stamp}`;
      fs.renameSync(dataDir, previous);
    } else if (fs.existsSync(dataDir)) {
      fs.rmdirSync(dataDir);
    }
    fs.renameSync(staging, dataDir);
    return { manifest, previous };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function readManifest(dir: string, file: string): BackupManifest {
  let parsed: Partial<BackupManifest>;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as Partial<BackupManifest>;
  } catch {
    throw invalid(file, `it has no readable ${MANIFEST_FILE} (was it made by \`svc backup\`?)`);
  }
  if (parsed.format !== 1 || !Array.isArray(parsed.files) || !parsed.files.includes(DATABASE_FILE)) {
    throw invalid(file, `its ${MANIFEST_FILE} is not format 1 with ${DATABASE_FILE}`);
  }
  // Entries that climb out of the folder never come from `svc backup`.
  if (parsed.files.some((f) => typeof f !== 'string' || f.split('/').includes('..') || path.isAbsolute(f))) {
    throw invalid(file, 'it lists a path outside the data folder');
  }
  return parsed as BackupManifest;
}

const invalid = (file: string, why: string) =>
  new OperationsError('INVALID_BACKUP', `${file} cannot be restored: ${why}.`);

/** Every regular file under `dir`, relative with `/` separators, sorted. */
function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}
