// Draws a query's answer as plain text for a saved reply or a read note: a table, list, text chart or stat.
import { formatCell, type QueryResult, type QueryView } from '@screen-service/tables-engine';

const BAR = 20;

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function header(name: string, unit: string | undefined): string {
  return unit ? `${name} (${unit})` : name;
}

/** A Markdown table: header with units, one row per answer row; cells as a person reads them. */
function drawTable(result: QueryResult): string {
  const cols = result.columns;
  if (cols.length === 0) return '(no columns)';
  const head = `| ${cols.map((c) => escapeCell(header(c.name, c.unit))).join(' | ')} |`;
  const rule = `|${cols.map(() => ' --- |').join('')}`;
  const rows = result.rows.map(
    (row) =>
      `| ${row.map((cell, i) => escapeCell(formatCell(cell, { ...cols[i]!, unit: undefined }))).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}

function drawChart(view: Extract<QueryView, { kind: 'chart' }>): string {
  const xi = view.cols.findIndex((c) => c.name === view.x);
  const lines: string[] = [];
  for (const name of view.y) {
    const yi = view.cols.findIndex((c) => c.name === name);
    const values = view.rows.map((r) => r[yi] as number | null);
    const top = Math.max(0, ...values.map((v) => Math.abs(v ?? 0)));
    if (view.y.length > 1) lines.push(`${name}:`);
    view.rows.forEach((row, r) => {
      const v = values[r] ?? null;
      const label = formatCell(row[xi] ?? null, { ...view.cols[xi]!, unit: undefined }) || '—';
      const bar =
        v === null || top === 0 ? '' : '█'.repeat(Math.max(1, Math.round((Math.abs(v) / top) * BAR)));
      const shown = v === null ? '—' : view.unit ? `${v} ${view.unit}` : String(v);
      lines.push(`${label}  ${bar} ${shown}`.replace(/ {2}$/, ''));
    });
  }
  return lines.join('\n');
}

function drawStat(view: Extract<QueryView, { kind: 'stat' }>): string {
  const value = view.value === null ? '—' : view.unit ? `${view.value} ${view.unit}` : String(view.value);
  const change =
    view.change === undefined || view.change === null
      ? ''
      : ` (${view.change >= 0 ? '+' : ''}${Number(view.change.toFixed(6))} since the row before)`;
  return `${view.label}: ${value}${change}`;
}

/**
 * The plain drawing of one query result (doc3 "Native agents": a table, list, chart or stat with the real
 * rows); a query that could not run draws its reason instead.
 *
 * @example
 * ```ts
 * drawPlain(answer.results[0]); // '| Date | Weight (kg) |\n| --- | --- |\n| 2026-11-20 | 72.5 |'
 * ```
 */
export function drawPlain(result: QueryResult): string {
  if (result.error !== undefined) return result.error;
  const view = result.view;
  const title = view?.title ? `**${view.title}**\n` : '';
  if (result.rows.length === 0 && view?.kind !== 'stat') return `${title}${result.table}: no rows.`;
  switch (view?.kind) {
    case 'list':
      return (
        title +
        view.items
          .map((i) => `- ${i.checked === undefined ? '' : i.checked ? '[x] ' : '[ ] '}${i.text}`)
          .join('\n')
      );
    case 'chart':
      return title + drawChart(view);
    case 'stat':
      return title + drawStat(view);
    default:
      return title + drawTable(result);
  }
}
