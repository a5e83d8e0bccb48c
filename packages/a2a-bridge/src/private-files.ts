// The bridge's folder and its JSON files: owner-only, the folder made or tightened once per process; the
// atomic write itself is io-kit's (temp file, fsync, rename).
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeJsonAtomic } from '@screen-service/io-kit/atomic-file';

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
 * Writes JSON owner-only so that a reader (or a crash) sees either the old file or the new one; the first
 * write into a folder makes it private (a folder removed since is made again by the write).
 *
 * @example
 * ```ts
 * await writePrivateJson('/home/me/.svc-a2a/state.json', { version: 1, agents: {} });
 * ```
 */
export async function writePrivateJson(path: string, value: unknown): Promise<void> {
  const dir = dirname(path);
  if (!ensured.has(dir)) {
    await ensurePrivateDir(dir);
    ensured.add(dir);
  }
  await writeJsonAtomic(path, value, { mode: FILE_MODE, dirMode: DIR_MODE });
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
