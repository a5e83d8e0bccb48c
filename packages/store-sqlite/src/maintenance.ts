// SQLite upkeep the operator's tools need: the WAL checkpoint job, the online backup and the health check.
import fs from 'node:fs';
import type { HousekeepingJob } from '@screen-service/core/housekeeping';
import { schemaVersion } from '@screen-service/tables-engine/migrations';
import Database from 'better-sqlite3';
import { SERVICE_MIGRATIONS, type ServiceDb } from './service-database.js';

/**
 * The `wal-checkpoint` housekeeping job: copies the write-ahead log into the database and truncates it,
 * so the `-wal` file does not grow between SQLite's own automatic checkpoints. Removes no rows (0).
 */
export function walCheckpointJob(db: ServiceDb): HousekeepingJob {
  return {
    name: 'wal-checkpoint',
    run: async () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      return 0;
    },
  };
}

/**
 * A consistent copy of the open database at `dest` through SQLite's online backup API, while other
 * connections keep writing (pages written meanwhile are copied again). The copy is a self-contained file
 * (journal mode DELETE, no `-wal` beside it).
 *
 * @example
 * ```ts
 * await backupDatabase(db, '/tmp/svc-backup.sqlite');
 * ```
 */
export async function backupDatabase(db: ServiceDb, dest: string): Promise<void> {
  await db.backup(dest);
  const copy = new Database(dest);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  fs.chmodSync(dest, 0o600);
}

/** What {@link inspectDatabase} found. */
export interface DatabaseReport {
  /** `ok`, or SQLite's integrity_check lines (at most 10). */
  integrity: string[];
  /** The newest migration applied to the file. */
  schemaVersion: number;
  /** The newest migration this code knows. */
  expectedVersion: number;
  /** Size of the database file and its WAL, in bytes. */
  bytes: number;
}

/**
 * Opens a database file read-only and checks it: `PRAGMA integrity_check`, the schema version against
 * this code's, and its size. Throws the driver's error when the file is not a database at all
 * (`SQLITE_NOTADB`) or cannot be opened.
 */
export function inspectDatabase(file: string): DatabaseReport {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('PRAGMA integrity_check(10)').all() as { integrity_check: string }[];
    const bytes = [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
    return {
      integrity: rows.map((r) => r.integrity_check),
      schemaVersion: schemaVersion(db),
      expectedVersion: Math.max(...SERVICE_MIGRATIONS.map((m) => m.version)),
      bytes,
    };
  } finally {
    db.close();
  }
}
