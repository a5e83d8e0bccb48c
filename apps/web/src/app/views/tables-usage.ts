// The line in an agent's settings that says how much space this device's copy of its tables takes (ADR 0250).
import { el } from '../../shared/dom.js';
import { phoneTables } from '../phone-tables.js';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * `Copy on this device: 3 tables, 1,204 rows, 2.1 MB.` and whether the browser keeps it (or why it cannot be
 * read). The tables themselves are listed once, above; this is only the copy that shows them at once and offline.
 */
export function tablesUsage(agentId: string): HTMLElement {
  const line = el('p', { class: 'svc-muted tables-usage', 'data-usage': '' }, 'Copy on this device: …');
  void (async () => {
    try {
      const u = await (await phoneTables()).request({ kind: 'usage', agent: agentId });
      line.dataset.usage = String(u.bytes);
      // The app asked for persistent storage when the tables started (phone-tables.ts); say what the browser answered.
      const kept = await navigator.storage?.persisted?.().catch(() => false);
      line.dataset.persisted = String(kept === true);
      const keep = kept
        ? ' Kept until you remove the agent.'
        : ' The browser may clear it if the device runs short of space; the service keeps the tables.';
      line.textContent =
        (u.tables === 0
          ? 'Copy on this device: none yet.'
          : `Copy on this device (shows the tables at once and offline): ${u.tables} ${u.tables === 1 ? 'table' : 'tables'}, ${u.rows.toLocaleString('en')} rows, ${size(u.bytes)}.`) +
        keep;
    } catch (error) {
      line.textContent = `Copy on this device: ${(error as Error).message}`;
    }
  })();
  return line;
}
