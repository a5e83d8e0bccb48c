// Files written so that a reader, or a crash, sees the old content or the new, never half of it: a temp file
// beside the target, flushed to disk, then renamed over it. Owner-only by default (tokens and keys live in them).
import fs from 'node:fs';
import path from 'node:path';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** The file's mode; default 0o600 (owner only), set exactly whatever the umask. */
  mode?: number;
  /** The mode of folders made for it when its folder is missing; default 0o700. Existing folders are left as they are. */
  dirMode?: number;
}

// Temp names: this process's id and a counter, opened exclusively, so two writers never share one temp file
// and no randomness is needed (a stale temp of a crashed process with the same id is stepped over).
let counter = 0;
const tempName = (target: string) => `${target}.${process.pid}.${++counter}.tmp`;
const isCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

async function openTemp(target: string, mode: number, dirMode: number) {
  for (let madeDir = false; ; ) {
    const temp = tempName(target);
    try {
      return { temp, handle: await fs.promises.open(temp, 'wx', mode) };
    } catch (error) {
      if (isCode(error, 'EEXIST')) continue;
      // The folder is missing (first write, or removed since): make it once, then try again.
      if (!isCode(error, 'ENOENT') || madeDir) throw error;
      await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: dirMode });
      madeDir = true;
    }
  }
}

/**
 * Writes `data` to `target` atomically (temp file, fsync, rename); makes its folder when missing. On any
 * failure the temp file is removed and the target keeps its old content.
 *
 * @example
 * ```ts
 * await writeFileAtomic('/home/me/.svc-host.json', '{"token":"..."}\n');
 * ```
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const { temp, handle } = await openTemp(target, mode, options.dirMode ?? 0o700);
  try {
    try {
      await handle.writeFile(data);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/**
 * {@link writeFileAtomic} for start-up code that cannot wait (a key file read right after it is made).
 *
 * @example
 * ```ts
 * writeFileAtomicSync(`${dataDir}/secret.key`, `${key}\n`);
 * ```
 */
export function writeFileAtomicSync(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const mode = options.mode ?? 0o600;
  let temp = tempName(target);
  let fd: number;
  try {
    fd = fs.openSync(temp, 'wx', mode);
  } catch (error) {
    if (!isCode(error, 'ENOENT') && !isCode(error, 'EEXIST')) throw error;
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: options.dirMode ?? 0o700 });
    temp = tempName(target);
    fd = fs.openSync(temp, 'wx', mode);
  }
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * A value as pretty JSON (two-space indent, a final newline) through {@link writeFileAtomic}.
 *
 * @example
 * ```ts
 * await writeJsonAtomic('/home/me/.svc-a2a/state.json', { version: 1, agents: {} });
 * ```
 */
export async function writeJsonAtomic(
  target: string,
  value: unknown,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await writeFileAtomic(target, `${JSON.stringify(value, null, 2)}\n`, options);
}
