// `svc backup`, `svc restore` and `svc doctor`: the operator's commands over @screen-service/operations.
import fs from 'node:fs';
import path from 'node:path';
import {
  createBackup,
  type DoctorCheck,
  OperationsError,
  restoreBackup,
  runDoctor,
  WITHOUT_SECRET_NOTE,
} from '@screen-service/operations';
import type { ServerConfig } from '@screen-service/server';
import { createPostgresServices, describeDatabaseUrl } from '@screen-service/store-postgres';
import { DATABASE_FILE, openServiceDatabase } from '@screen-service/store-sqlite';
import Database from 'better-sqlite3';
import { CliError, EXIT } from './commands.js';

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

export const OPERATE_HELP = {
  backup: `svc backup <file.tar.gz> [--without-secret]

Writes one archive with a consistent copy of the database (SQLite's online backup: the service may keep
running and writing) and every other file of the data folder: photos, secret.key, vapid.json. The file
must not exist yet and must lie outside the data folder; it is written owner-only (0600) because it
holds every credential hash and key. Prints a JSON summary.

--without-secret leaves secret.key out (for an archive kept where the key should not be). Restoring it
then means: with the same SVC_SECRET as before, nothing changes; without it, a new key is made, every
sign-in and photo link stops working and people sign in again (accounts, agents and threads are intact).`,
  restore: `svc restore <file.tar.gz>

Restores an archive made by \`svc backup\` into the data folder (SVC_DATA_DIR). Refuses while a server
runs on that folder: stop it first (Ctrl-C, or \`systemctl stop screen-service\`). The archive is checked
(manifest, files, database integrity) before anything moves; the folder's previous contents are kept as
<data folder>.before-restore-<time>. Start the service afterwards.`,
  doctor: `svc doctor

Checks this deployment and prints what to fix: Node version, the data folder's owner and permissions,
the database's integrity and schema version, whether SVC_BASE_URL answers /readyz, the push keys, and the
clock against the server's. Exit code 0 when nothing failed (warnings allowed), 1 otherwise.`,
};

/** `svc backup <file>`: the archive of the data folder while the service may run. */
export async function backupCommand(
  config: ServerConfig,
  file: string,
  io: Out,
  withoutSecret = false,
): Promise<number> {
  refuseOnPostgres(config, 'backup');
  const dbFile = path.join(config.dataDir, DATABASE_FILE);
  if (!fs.existsSync(dbFile)) {
    throw new CliError(
      `No database at ${dbFile}. Set SVC_DATA_DIR to the folder the service uses.`,
      EXIT.USAGE,
    );
  }
  // A second connection beside the running server's: WAL lets both read and write at once.
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 5000');
  try {
    const manifest = await operations(() =>
      createBackup({ db, dataDir: config.dataDir, file, withoutSecret }),
    );
    io.stdout(
      `${JSON.stringify({ file: path.resolve(file), schema_version: manifest.schemaVersion, files: manifest.files.length, without_secret: withoutSecret })}\n`,
    );
    if (withoutSecret) io.stderr(`${WITHOUT_SECRET_NOTE}\n`);
    return EXIT.OK;
  } finally {
    db.close();
  }
}

/** `svc restore <file>`: refuses a running instance; migrations run at the next start. */
export async function restoreCommand(config: ServerConfig, file: string, io: Out): Promise<number> {
  refuseOnPostgres(config, 'restore');
  const report = await operations(() => restoreBackup({ file, dataDir: config.dataDir }));
  // Opening it once applies any newer migrations now, so a failure shows here and not at start.
  openServiceDatabase(config.dataDir).close();
  io.stdout(
    `${JSON.stringify({ restored: config.dataDir, previous: report.previous, created_at: report.manifest.createdAt })}\n`,
  );
  if (report.manifest.withoutSecret && !config.secret) io.stderr(`${WITHOUT_SECRET_NOTE}\n`);
  io.stderr(
    `Restored into ${config.dataDir}. Start the service: \`npx svc serve\` (or \`systemctl start screen-service\`).\n`,
  );
  return EXIT.OK;
}

/** `svc doctor`: one line per check, then the fixes. */
export async function doctorCommand(config: ServerConfig, io: Out): Promise<number> {
  const checks = await runDoctor({
    ...(config.databaseUrl ? { database: () => checkPostgres(config.databaseUrl as string) } : {}),
    dataDir: config.dataDir,
    baseUrl: config.baseUrl,
    vapidFromEnv: Boolean(config.vapid?.publicKey),
    pushConfigured: Boolean(config.vapid?.subject || config.baseUrl.startsWith('https://')),
  });
  const mark = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;
  for (const c of checks) {
    io.stdout(`${mark[c.status]} ${c.name.padEnd(9)} ${c.detail}\n`);
    if (c.fix) io.stdout(`     ${' '.repeat(9)} fix: ${c.fix}\n`);
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  io.stdout(failed === 0 ? 'No problems found.\n' : `${failed} problem(s) to fix.\n`);
  return failed === 0 ? EXIT.OK : EXIT.FAILURE;
}

/**
 * On PostgreSQL the database is backed up with PostgreSQL's own tools: an archive of the data folder would
 * hold no row, and a restore into it would bring back a SQLite file no instance reads.
 */
function refuseOnPostgres(config: ServerConfig, command: 'backup' | 'restore'): void {
  if (!config.databaseUrl) return;
  const db = describeDatabaseUrl(config.databaseUrl);
  const how =
    command === 'backup'
      ? `pg_dump --format=custom --file=svc.dump "$SVC_DATABASE_URL"`
      : `stop every instance, then pg_restore --clean --if-exists --no-owner --dbname "$SVC_DATABASE_URL" svc.dump`;
  throw new CliError(
    `svc ${command} archives the SQLite data folder, and this service runs on PostgreSQL (${db}, SVC_DATABASE_URL). Use ${how} (every row and photo is in the database; keep SVC_SECRET and the SVC_VAPID_* keys with the settings). See docs/operations.md, "PostgreSQL".`,
    EXIT.USAGE,
  );
}

/** The database check of `svc doctor` on PostgreSQL: it answers, and carries this code's schema version. */
async function checkPostgres(url: string): Promise<DoctorCheck> {
  const where = describeDatabaseUrl(url);
  let postgres: Awaited<ReturnType<typeof createPostgresServices>>;
  try {
    // Opening migrates a database that is behind, as the first instance to start would.
    postgres = await createPostgresServices(url);
  } catch (err) {
    return {
      name: 'database',
      status: 'fail',
      detail: `PostgreSQL at ${where} cannot be opened (${(err as Error).message})`,
      fix: 'Check SVC_DATABASE_URL (user, password, host, port, database) and that PostgreSQL runs and accepts this user.',
    };
  }
  try {
    const { database } = await postgres.readiness();
    if (!database.ok) {
      return {
        name: 'database',
        status: 'fail',
        detail: `PostgreSQL at ${where}: ${database.reason} (${database.error})`,
        fix: 'Check that PostgreSQL runs and answers; see docs/scale-out.md for POSTGRES_UNREACHABLE and POSTGRES_TIMEOUT.',
      };
    }
    const detail = `PostgreSQL at ${where}, schema version ${database.schema_version}, ${Math.round(database.latency_ms * 10) / 10} ms round trip`;
    return database.schema_version === database.expected_version
      ? { name: 'database', status: 'ok', detail }
      : {
          name: 'database',
          status: 'fail',
          detail: `${detail}; this code expects version ${database.expected_version}`,
          fix: 'Run the same version of the service on every instance (a newer instance migrates the database at start).',
        };
  } finally {
    await postgres.close();
  }
}

/** Refusals of the operations package become exit codes: a running instance is refused (3), bad input 2. */
async function operations<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof OperationsError) {
      throw new CliError(err.message, err.code === 'INSTANCE_RUNNING' ? EXIT.REFUSED : EXIT.USAGE);
    }
    throw err;
  }
}
