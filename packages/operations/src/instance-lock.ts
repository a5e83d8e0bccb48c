// `<dataDir>/svc.pid`: which process serves a data folder, so a restore never swaps it underneath.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The pid file's name inside the data folder (never backed up). */
export const PID_FILE = 'svc.pid';

/** The instance serving a data folder. */
export interface RunningInstance {
  pid: number;
  host: string;
  startedAt: string;
}

/**
 * Records this process as the data folder's server; the returned function removes the record (only if it
 * is still ours). A stale record of a process that is gone is replaced; a live other one is left alone.
 */
export function claimDataDir(dataDir: string, now: () => number = Date.now): () => void {
  const file = path.join(dataDir, PID_FILE);
  const other = runningInstance(dataDir);
  if (other && other.pid !== process.pid) return () => {};
  const me: RunningInstance = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date(now()).toISOString(),
  };
  fs.writeFileSync(file, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  return () => {
    const current = readInstance(file);
    if (current?.pid === process.pid && current.host === me.host) fs.rmSync(file, { force: true });
  };
}

/** The live instance serving `dataDir` on this machine, or null (no record, or its process is gone). */
export function runningInstance(dataDir: string): RunningInstance | null {
  const found = readInstance(path.join(dataDir, PID_FILE));
  if (!found) return null;
  // Another machine's process (a shared folder) cannot be checked from here: assume it still runs.
  if (found.host !== os.hostname()) return found;
  try {
    process.kill(found.pid, 0);
    return found;
  } catch (err) {
    // EPERM: the process exists but belongs to another user; it is still running.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? found : null;
  }
}

function readInstance(file: string): RunningInstance | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RunningInstance>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string'
      ? { pid: parsed.pid, host: parsed.host, startedAt: String(parsed.startedAt ?? '') }
      : null;
  } catch {
    return null;
  }
}
