// `svc doctor`: checks a deployment and says what to fix, one finding per check.
import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE, inspectDatabase } from '@screen-service/store-sqlite';

/** `ok`, `warn` (works, but worth fixing) or `fail` (broken). */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One finding. `fix` says what to do when the status is not `ok`. */
export interface DoctorCheck {
  name: 'node' | 'data-dir' | 'database' | 'base-url' | 'push-keys' | 'clock';
  status: CheckStatus;
  detail: string;
  fix?: string;
}

/** What {@link runDoctor} looks at. */
export interface DoctorOptions {
  dataDir: string;
  /**
   * The database check when the service does not run on the data folder's SQLite file (PostgreSQL: the
   * caller probes it); then no SQLite file is looked for.
   */
  database?: () => Promise<DoctorCheck>;
  baseUrl: string;
  /** `process.versions.node` by default. */
  nodeVersion?: string;
  requiredNodeMajor?: number;
  /** VAPID keys given through the environment (then no `vapid.json` is needed). */
  vapidFromEnv?: boolean;
  /** Whether push is meant to be on (a contact is configured). */
  pushConfigured?: boolean;
  fetch?: typeof fetch;
  now?: () => number;
  /** How long to wait for the base URL; default 3 s. */
  timeoutMs?: number;
  /** The clock difference that is worth a warning; default 30 s (tokens and codes are minutes long). */
  maxSkewMs?: number;
}

/**
 * Runs every check. Never throws for what it finds: each problem is a `fail` or `warn` with its fix.
 *
 * @example
 * ```ts
 * const checks = await runDoctor({ dataDir: config.dataDir, baseUrl: config.baseUrl });
 * ```
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [
    checkNode(options),
    ...checkDataDir(options.dataDir),
    options.database ? await options.database() : checkDatabase(options.dataDir),
  ];
  checks.push(checkPushKeys(options));
  checks.push(...(await checkBaseUrl(options)));
  return checks;
}

function checkNode(o: DoctorOptions): DoctorCheck {
  const version = o.nodeVersion ?? process.versions.node;
  const required = o.requiredNodeMajor ?? 24;
  return Number(version.split('.')[0]) === required
    ? { name: 'node', status: 'ok', detail: `Node ${version}` }
    : {
        name: 'node',
        status: 'fail',
        detail: `Node ${version}; the service needs Node ${required}`,
        fix: `Run through npm (\`npx svc\`, \`npm start\`), which uses the pinned Node ${required}, or install Node ${required}.`,
      };
}

const SECRET_FILES = [DATABASE_FILE, 'secret.key', 'vapid.json'];

function checkDataDir(dataDir: string): DoctorCheck[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dataDir);
  } catch {
    return [
      {
        name: 'data-dir',
        status: 'fail',
        detail: `${dataDir} does not exist`,
        fix: 'Start the service once (it creates the folder), or set SVC_DATA_DIR to the folder that holds svc.sqlite.',
      },
    ];
  }
  const problems: string[] = [];
  const fixes: string[] = [];
  if ((stat.mode & 0o077) !== 0) {
    problems.push(`${dataDir} is mode ${octal(stat.mode)} (others can look inside)`);
    fixes.push(`chmod 700 ${dataDir}`);
  }
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    problems.push(`${dataDir} belongs to uid ${stat.uid}, not to this user (${process.getuid()})`);
    fixes.push(`run svc as the service's user, or chown -R <service user> ${dataDir}`);
  }
  try {
    fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    problems.push(`${dataDir} is not readable and writable by this user`);
    fixes.push(`chmod 700 ${dataDir} (as its owner)`);
  }
  for (const name of SECRET_FILES) {
    const f = path.join(dataDir, name);
    if (!fs.existsSync(f)) continue;
    const mode = fs.statSync(f).mode;
    if ((mode & 0o077) !== 0) {
      problems.push(`${name} is mode ${octal(mode)}: it holds credentials`);
      fixes.push(`chmod 600 ${f}`);
    }
  }
  return [
    problems.length === 0
      ? { name: 'data-dir', status: 'ok', detail: `${dataDir} (owner only)` }
      : { name: 'data-dir', status: 'fail', detail: problems.join('; '), fix: fixes.join('; ') },
  ];
}

function checkDatabase(dataDir: string): DoctorCheck {
  const file = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(file)) {
    return {
      name: 'database',
      status: 'fail',
      detail: `no database at ${file}`,
      fix: 'Start the service once to create it, or restore a backup with `svc restore <file>`.',
    };
  }
  try {
    const r = inspectDatabase(file);
    if (r.integrity.join() !== 'ok') {
      return {
        name: 'database',
        status: 'fail',
        detail: `integrity check failed: ${r.integrity.join('; ')}`,
        fix: 'Stop the service and restore the newest backup (`svc restore <file>`).',
      };
    }
    if (r.schemaVersion > r.expectedVersion) {
      return {
        name: 'database',
        status: 'fail',
        detail: `schema version ${r.schemaVersion} is newer than this code knows (${r.expectedVersion})`,
        fix: 'Run the newer release that wrote it, or restore a backup made by this release.',
      };
    }
    const mb = (r.bytes / 1e6).toFixed(1);
    if (r.schemaVersion < r.expectedVersion) {
      return {
        name: 'database',
        status: 'warn',
        detail: `schema version ${r.schemaVersion}; this code migrates it to ${r.expectedVersion} at start (${mb} MB)`,
        fix: 'Take a backup (`svc backup <file>`) before starting the new release.',
      };
    }
    return {
      name: 'database',
      status: 'ok',
      detail: `integrity ok, schema version ${r.schemaVersion}, ${mb} MB`,
    };
  } catch (err) {
    return {
      name: 'database',
      status: 'fail',
      detail: `${file} cannot be read as a database (${(err as Error).message})`,
      fix: 'Stop the service and restore the newest backup (`svc restore <file>`).',
    };
  }
}

function checkPushKeys(o: DoctorOptions): DoctorCheck {
  if (o.vapidFromEnv) return { name: 'push-keys', status: 'ok', detail: 'VAPID keys from the environment' };
  const file = path.join(o.dataDir, 'vapid.json');
  if (!fs.existsSync(file)) {
    return o.pushConfigured
      ? { name: 'push-keys', status: 'ok', detail: 'vapid.json is made at the next start' }
      : {
          name: 'push-keys',
          status: 'warn',
          detail: 'push is off: no contact address and no vapid.json',
          fix: 'Set SVC_VAPID_SUBJECT=mailto:you@example.com (or use an https:// SVC_BASE_URL) and restart.',
        };
  }
  try {
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string')
      throw new Error('keys missing');
    return {
      name: 'push-keys',
      status: 'ok',
      detail: `vapid.json (public key ${keys.publicKey.slice(0, 12)}…)`,
    };
  } catch (err) {
    return {
      name: 'push-keys',
      status: 'fail',
      detail: `vapid.json is unreadable (${(err as Error).message})`,
      fix: 'Restore vapid.json from a backup (phones stay subscribed), or delete it to make new keys (every phone must turn Notifications on again).',
    };
  }
}

async function checkBaseUrl(o: DoctorOptions): Promise<DoctorCheck[]> {
  const url = `${o.baseUrl.replace(/\/+$/, '')}/readyz`;
  const doFetch = o.fetch ?? fetch;
  const now = o.now ?? Date.now;
  let res: Response;
  const sent = now();
  try {
    res = await doFetch(url, { signal: AbortSignal.timeout(o.timeoutMs ?? 3000) });
  } catch (err) {
    return [
      {
        name: 'base-url',
        status: 'fail',
        detail: `${url} is not reachable (${(err as Error).message})`,
        fix: 'Start the service (`svc serve`, or `systemctl start screen-service`), and check SVC_BASE_URL and the proxy in front of it.',
      },
    ];
  }
  const received = now();
  const checks: DoctorCheck[] = [
    res.ok
      ? { name: 'base-url', status: 'ok', detail: `${url} answered ${res.status}` }
      : {
          name: 'base-url',
          status: 'fail',
          detail: `${url} answered ${res.status}`,
          fix: 'Look at the service log; 503 means its database cannot be read, 404 that another site answers at SVC_BASE_URL.',
        },
  ];
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) {
    checks.push({
      name: 'clock',
      status: 'warn',
      detail: 'the answer had no Date header',
      fix: 'Check the proxy passes Date through.',
    });
  } else {
    // The Date header has one-second resolution; the middle of the exchange is the fairest local reading.
    const skew = date - (sent + received) / 2;
    const max = o.maxSkewMs ?? 30_000;
    checks.push(
      Math.abs(skew) <= max
        ? {
            name: 'clock',
            status: 'ok',
            detail: `within ${Math.ceil(Math.abs(skew) / 1000)} s of the server`,
          }
        : {
            name: 'clock',
            status: 'fail',
            detail: `this machine's clock is ${Math.round(skew / 1000)} s off the server's`,
            fix: 'Turn on time sync on both machines (`timedatectl set-ntp true`); codes and tokens expire in minutes.',
          },
    );
  }
  return checks;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');
