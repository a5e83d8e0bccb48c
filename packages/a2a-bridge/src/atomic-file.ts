// Owner-only JSON files written atomically: write a temp file beside the target, fsync, rename.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Directory mode for everything the bridge keeps on disk (owner only). */
export const DIR_MODE = 0o700;
/** File mode for everything the bridge keeps on disk (owner only). */
export const FILE_MODE = 0o600;

// Directories this process already created or tightened; a write needs only its rename after that.
const ensured = new Set<string>();

/**
 * Creates a directory (and parents) readable by the owner only; tightens an existing one.
 *
 * @example
 * ```ts
 * await ensurePrivateDir('/home/me/.svc-a2a');
 * ```
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await chmod(dir, DIR_MODE);
}

/**
 * Writes JSON so that a reader (or a crash) sees either the old file or the new one, never half of it.
 *
 * @example
 * ```ts
 * await writeJsonAtomic('/home/me/.svc-a2a/state.json', { version: 1, agents: {} });
 * ```
 */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const dir = dirname(path);
  if (!ensured.has(dir)) {
    await ensurePrivateDir(dir);
    ensured.add(dir);
  }
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(temp, 'w', FILE_MODE);
  } catch (error) {
    // The directory went away since this process made it: make it again, once.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await ensurePrivateDir(dir);
    handle = await open(temp, 'w', FILE_MODE);
  }
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Reads a JSON file; `undefined` when it does not exist. Throws `SyntaxError` on broken JSON.
 *
 * @example
 * ```ts
 * const state = await readJsonFile('/home/me/.svc-a2a/state.json');
 * ```
 */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text);
}
