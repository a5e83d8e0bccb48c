// Formatting of the suites' results: Markdown tables, MiB, and the machine's load average.
import os from 'node:os';

/** A Markdown table (pads columns so it also reads well in a terminal). */
export function formatTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return Number.isFinite(bytes) ? (bytes / 1024 / 1024).toFixed(1) : '?';
}

/** The 1/5/15-minute load averages, as `uptime` prints them. */
export function machineLoad(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
}
