// Splits an agent's whole reply into prose and table lines (bare, or inside a fenced `svc` / `tables` block).

/** One piece of a reply, in order: a prose line, a fence line kept as is, or a table line. */
export type ReplyPiece =
  | { kind: 'text'; text: string }
  | { kind: 'table'; line: string; query: boolean }
  /** A fenced `svc` block's other lines (screens), kept for the saved text. */
  | { kind: 'block'; lines: string[] };

/** A reply taken apart. */
export interface SplitReply {
  pieces: ReplyPiece[];
  /** The table lines in order. */
  lines: string[];
}

const TABLE_WORD = /^\s*(?:table\s+(?:create|drop)|put|query)\s+\S/;
const QUERY_WORD = /^\s*query\s/;
const FENCE = /^\s*```\s*([A-Za-z0-9_-]*)\s*$/;

/**
 * Takes a reply apart. Inside a fenced `svc` or `tables` block every line that starts with a table word is
 * a table line; outside fences a line is one only when `isTableLine` accepts it (it parses as one), so
 * prose like "put it on the list" stays prose. Other fenced blocks (code) are left alone.
 *
 * @example
 * ```ts
 * splitReply('Logged it.\n```svc\nput Weights Weight=72\n```', () => false).lines; // ['put Weights Weight=72']
 * ```
 */
export function splitReply(reply: string, isTableLine: (line: string) => boolean): SplitReply {
  const pieces: ReplyPiece[] = [];
  const lines: string[] = [];
  const source = reply.split(/\r?\n/);
  let fence: string | null = null;
  let block: string[] = [];
  const table = (line: string) => {
    lines.push(line.trim());
    pieces.push({ kind: 'table', line: line.trim(), query: QUERY_WORD.test(line) });
  };
  for (const line of source) {
    const f = FENCE.exec(line);
    if (fence === null && f) {
      fence = (f[1] ?? '').toLowerCase();
      if (fence !== 'svc' && fence !== 'tables') pieces.push({ kind: 'text', text: line });
      block = [];
      continue;
    }
    if (fence !== null && f && f[1] === '') {
      if (fence === 'svc' || fence === 'tables') {
        if (block.some((l) => l.trim() !== '')) pieces.push({ kind: 'block', lines: block });
      } else pieces.push({ kind: 'text', text: line });
      fence = null;
      continue;
    }
    if (fence === 'svc' || fence === 'tables') {
      if (TABLE_WORD.test(line)) table(line);
      else block.push(line);
    } else if (fence === null && TABLE_WORD.test(line) && isTableLine(line)) table(line);
    else pieces.push({ kind: 'text', text: line });
  }
  // An unclosed svc block still gives its lines.
  if ((fence === 'svc' || fence === 'tables') && block.some((l) => l.trim() !== '')) {
    pieces.push({ kind: 'block', lines: block });
  }
  return { pieces, lines };
}

/** True when the reply holds nothing but query lines (a read: doc3's `{read: true}`). */
export function isReadOnly(split: SplitReply): boolean {
  if (split.lines.length === 0) return false;
  return split.pieces.every(
    (p) => (p.kind === 'table' && p.query) || (p.kind === 'text' && p.text.trim() === ''),
  );
}
