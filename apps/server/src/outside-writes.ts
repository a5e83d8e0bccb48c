// Writes another process makes to the data folder's database (`svc share revoke`, `svc user ...`) reach no
// listener of this server's in-process notifier. SQLite's `data_version` changes only when another
// connection commits, so the server polls it and tells every listener to re-read, as after a lost link
// between instances (ADR 0246): an open app reloads its list and thread, a host gets what it is owed.
import type { ServiceDb } from '@screen-service/store-sqlite';

/** How often the server looks for another process's commits (ms). */
export const OUTSIDE_WRITES_EVERY_MS = 250;

/**
 * Calls `onChange` once after each poll that finds commits by another connection; returns the stop.
 *
 * @example
 * ```ts
 * const stop = watchOutsideWrites(db, () => notifier.resyncAll());
 * ```
 */
export function watchOutsideWrites(
  db: ServiceDb,
  onChange: () => void,
  everyMs = OUTSIDE_WRITES_EVERY_MS,
): () => void {
  const version = () => db.pragma('data_version', { simple: true }) as number;
  let last = version();
  const timer = setInterval(() => {
    if (!db.open) return;
    const now = version();
    if (now === last) return;
    last = now;
    onChange();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
