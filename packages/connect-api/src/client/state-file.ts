// The host's per-machine state file (doc2: `{token, connector_id, name}` in an owner-only file), plus the
// stream cursor of what has been answered, written atomically with mode 0600 (io-kit's atomic file).
import { open } from 'node:fs/promises';
import { writeJsonAtomic } from '@screen-service/io-kit/atomic-file';
import { HostApiError } from './errors.js';

/** What a host keeps between runs. */
export interface HostState {
  /** The connector token `svc_ct_...` (shown once at the first `pair`). */
  token: string;
  connector_id: string;
  /** The host name the connector was paired with. */
  name: string;
  /** The connect URL the token belongs to. */
  connect_url: string;
  /** Seq of the newest person row whose turn was answered: a restart resumes after it. */
  cursor?: number;
}

/**
 * Reads the state file; null when it does not exist. A file readable by others is refused (its token would
 * be exposed): fix it with `chmod 600`.
 *
 * @example
 * ```ts
 * const state = await readHostState('/home/me/.svc-host.json');
 * ```
 */
export async function readHostState(path: string): Promise<HostState | null> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const { mode } = await handle.stat();
      if ((mode & 0o077) !== 0) {
        throw new HostApiError(
          0,
          'STATE_FILE',
          `${path} is readable by other users (mode ${(mode & 0o777).toString(8)}); run chmod 600 ${path}.`,
        );
      }
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HostApiError(0, 'STATE_FILE', `${path} is not JSON; remove it and pair again.`);
  }
  const s = parsed as Partial<HostState>;
  if (
    typeof s.token !== 'string' ||
    typeof s.connector_id !== 'string' ||
    typeof s.connect_url !== 'string'
  ) {
    throw new HostApiError(0, 'STATE_FILE', `${path} lacks token, connector_id or connect_url; pair again.`);
  }
  return {
    token: s.token,
    connector_id: s.connector_id,
    name: typeof s.name === 'string' ? s.name : '',
    connect_url: s.connect_url,
    ...(typeof s.cursor === 'number' ? { cursor: s.cursor } : {}),
  };
}

/**
 * Writes the state file so a crash leaves the old file or the new one, never half of either; mode 0600.
 *
 * @example
 * ```ts
 * await writeHostState(path, { token, connector_id, name: 'laptop', connect_url });
 * ```
 */
export async function writeHostState(path: string, state: HostState): Promise<void> {
  await writeJsonAtomic(path, state, { mode: 0o600, dirMode: 0o700 });
}
