// Builds the model's conversation from the thread: the system prompt, then the thread's rows as chat turns.
import type { MessageRecord } from '@screen-service/registry/model';
import type { ChatMessage } from './model-client.js';

/** Agent rows the runtime writes about itself (model down, limits): never shown to the model as its words. */
export const SERVICE_LINE_PREFIX = '⚠ ';

/** How a native agent is told to answer: the channel guide follows this. */
export const REPLY_RULES = [
  "You are an agent in the person's Screen Service app; the person reads your replies on their phone.",
  'Reply in plain words. To show a screen (a choice, a check-in, a form, a chart...), put Screen Lines in a fenced ```svc block in your reply.',
  'Table lines (table create, put, query) go in the same ```svc block; a reply of only query lines is a read: the rows come back to you before the person sees anything.',
  'When the person taps a screen, their tap arrives as a line starting with [svc].',
  'To give a screen a deadline, add a fenced ```deadline block after it holding {"in": "10m", "default": {"lunch": "Soup"}}: `in` a duration (90s, 10m, 2h, 1d) or `at` an ISO time with its zone, `default` the answer chosen for each tap id when nobody answers in time (or "none": the screen just expires), and optionally `escalate`: [{"at": "50%", "do": "remind"}]. A default arrives as the person\'s tap, marked "decided by default".',
].join('\n');

/**
 * The system prompt: the person's (or the starter's) instructions, the reply rules, what the agent holds
 * and the channel guide.
 */
export function systemPrompt(input: {
  name: string;
  instructions: string;
  guide: string;
  tables: string;
}): string {
  return [
    `Your name is ${input.name}.`,
    input.instructions.trim(),
    REPLY_RULES,
    input.tables ? `Your tables now: ${input.tables}` : 'You hold no tables yet.',
    input.guide,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

/** Who decided a tap the person did not make (ADR 0260, 0279, 0280): the model must not take it for theirs. */
function decidedNote(row: MessageRecord): string {
  const by = row.meta.decided_by;
  if (by === 'default') return ' (decided by default: nobody answered by the deadline)';
  if (by === 'escalation') return ' (decided by a holder the ask was offered to)';
  return '';
}

function rowText(row: MessageRecord): { role: 'user' | 'assistant'; content: string } | null {
  if (row.sender === 'person') {
    const tables = typeof row.meta.tables === 'string' ? `${row.meta.tables}\n` : '';
    const photos = Array.isArray(row.meta.photos) ? ` [${row.meta.photos.length} photo(s) attached]` : '';
    return { role: 'user', content: `${tables}${row.body}${photos}${decidedNote(row)}` };
  }
  // The tables' Delete / Keep cards are the service's, not the agent's words.
  if (row.meta.tables_pending !== undefined) return null;
  if (row.kind === 'screen') {
    const text = typeof row.meta.text === 'string' ? `${row.meta.text}\n` : '';
    return { role: 'assistant', content: `${text}\`\`\`svc\n${row.body}\n\`\`\`` };
  }
  if (row.body.startsWith(SERVICE_LINE_PREFIX)) return null;
  return { role: 'assistant', content: row.body };
}

/**
 * The thread in conversation order: a person row goes right before the answer that names it in
 * `meta.turn` (rows sent during a turn are older than its answer but belong to the next turn), and the
 * rows of the turn being answered go last.
 */
function conversationOrder(rows: MessageRecord[], turn: ReadonlySet<string>): MessageRecord[] {
  const answeredAt = new Map<string, number>();
  for (const row of rows) {
    if (row.sender !== 'agent' || !Array.isArray(row.meta.turn)) continue;
    for (const id of row.meta.turn) if (typeof id === 'string') answeredAt.set(id, row.seq);
  }
  const place = (row: MessageRecord) => {
    if (row.sender !== 'person') return row.seq;
    if (turn.has(row.id)) return Number.POSITIVE_INFINITY;
    const at = answeredAt.get(row.id);
    return at === undefined ? row.seq : at - 0.5;
  };
  return [...rows].sort((a, b) => place(a) - place(b) || a.seq - b.seq);
}

/**
 * The chat messages of one turn: system prompt, then the thread in conversation order (consecutive rows of
 * one side joined, as some servers require turns to alternate), then `notes` (refused writes, bad lines) at
 * the top of the last user turn.
 *
 * @example
 * ```ts
 * buildMessages({ system: 'You are...', rows, turn: ['msg_1'], notes: [] }); // [{ role: 'system', ... }, { role: 'user', ... }]
 * ```
 */
export function buildMessages(input: {
  system: string;
  /** The thread's recent rows, oldest first. */
  rows: MessageRecord[];
  /** Ids of the person rows this turn answers. */
  turn: readonly string[];
  notes: string[];
}): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: input.system }];
  for (const row of conversationOrder(input.rows, new Set(input.turn))) {
    const m = rowText(row);
    if (!m) continue;
    const last = out[out.length - 1]!;
    if (last.role === m.role) last.content += `\n${m.content}`;
    else out.push(m);
  }
  // The model must see a user turn last; a thread that opens with the agent's first message starts so too.
  if (out[out.length - 1]!.role !== 'user') out.push({ role: 'user', content: '' });
  if (input.notes.length > 0) {
    const last = out[out.length - 1]!;
    last.content = `${input.notes.join('\n')}\n${last.content}`.trimEnd();
  }
  return out;
}

/** A reply taken apart by {@link splitScreen}. */
export interface SplitScreen {
  prose: string;
  /** The Screen Lines of its fenced `svc` blocks ('' when none). */
  lines: string;
  /**
   * The text of its last fenced `deadline` block (ADR 0305): the screen's deadline, as `svc_show` takes it
   * (JSON, or a bare duration); null when there is none.
   */
  deadline: string | null;
}

/** Takes a saved reply apart: the prose, the Screen Lines of its fenced `svc` blocks, its `deadline` block. */
export function splitScreen(text: string): SplitScreen {
  const prose: string[] = [];
  const lines: string[] = [];
  let deadline: string[] | null = null;
  let block: 'svc' | 'deadline' | 'other' | null = null;
  for (const line of text.split(/\r?\n/)) {
    const fence = /^\s*```\s*([A-Za-z0-9_-]*)\s*$/.exec(line);
    if (fence && block === null) {
      const info = fence[1]?.toLowerCase();
      if (info === 'svc') block = 'svc';
      else if (info === 'deadline') {
        block = 'deadline';
        deadline = [];
      } else {
        block = 'other';
        prose.push(line);
      }
      continue;
    }
    if (fence && fence[1] === '') {
      if (block === 'other') prose.push(line);
      block = null;
      continue;
    }
    if (block === 'svc') lines.push(line);
    else if (block === 'deadline') deadline!.push(line);
    else prose.push(line);
  }
  return {
    prose: prose.join('\n').trim(),
    lines: lines.filter((l) => l.trim() !== '').join('\n'),
    deadline: deadline === null ? null : deadline.join('\n').trim(),
  };
}
