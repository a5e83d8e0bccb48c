// The line in an agent's settings that says how much space its tables take on this phone.
import { el } from '../../shared/dom.js';
import { phoneTables } from '../phone-tables.js';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `Tables on this phone: 3 tables, 1,204 rows, 2.1 MB.` and whether the browser keeps them (or why it cannot be read). */
export function tablesUsage(agentId: string): HTMLElement {
  const line = el('p', { class: 'svc-muted tables-usage', 'data-usage': '' }, 'Tables on this phone: …');
  void (async () => {
    try {
      const u = await (await phoneTables()).request({ kind: 'usage', agent: agentId });
      line.dataset.usage = String(u.bytes);
      // The app asked for persistent storage when the tables started (phone-tables.ts); say what the browser answered.
      const kept = await navigator.storage?.persisted?.().catch(() => false);
      line.dataset.persisted = String(kept === true);
      const keep = kept
        ? ' Kept until you remove the agent.'
        : ' The browser may clear them if the phone runs short of space (add the app to the home screen to keep them).';
      line.textContent =
        (u.tables === 0
          ? 'Tables on this phone: none yet.'
          : `Tables on this phone: ${u.tables} ${u.tables === 1 ? 'table' : 'tables'}, ${u.rows.toLocaleString('en')} rows, ${size(u.bytes)}.`) +
        keep;
    } catch (error) {
      line.textContent = `Tables on this phone: ${(error as Error).message}`;
    }
  })();
  return line;
}
