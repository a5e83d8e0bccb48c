// A turn (the person's rows since the last answer) as one A2A message: parts, guide, taps, messageId.
import { createHash } from 'node:crypto';
import type { TapEvent } from '@screen-service/screen-lines';
import type { Message, Part } from './model.js';
import type { InboundRow } from './service-link.js';

/** The channel guide as `@screen-service/screen-lines` `guide()` gives it. */
export interface ChannelGuide {
  text: string;
  version: string;
}

/** Input of {@link buildTurnMessage}. */
export interface TurnMessageInput {
  /** The service agent's id: the message's `contextId`. */
  agentId: string;
  rows: InboundRow[];
  /** Set when the turn continues a task that asked back (`input-required`). */
  taskId?: string;
  /** The guide goes on the first message of each new task (no `taskId`). */
  guide?: ChannelGuide;
  /** The card lists the graph framework's extensions: one text part plus `svc_*` data parts. */
  graphFramework: boolean;
  /** Formats a tap (`formatTapLine` of screen-lines): its first line is the tap line. */
  formatTapLine: (event: TapEvent) => string;
}

/**
 * The `messageId` of a turn: fixed by the agent and the rows it carries (same rows, same id), shaped
 * as a UUID so that servers that check the format accept it.
 *
 * @example
 * ```ts
 * deriveMessageId('agent-1', ['r1', 'r2']) === deriveMessageId('agent-1', ['r1', 'r2']); // true
 * ```
 */
export function deriveMessageId(agentId: string, rowIds: readonly string[]): string {
  const hex = createHash('sha256')
    .update(JSON.stringify([agentId, ...rowIds]))
    .digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function tapLine(row: InboundRow, format: (e: TapEvent) => string): string {
  return row.tap ? (format(row.tap).split('\n')[0] ?? '') : '';
}

/**
 * Builds the message for a turn, per doc3 "Mapping of a conversation": the guide first on a new task,
 * the hand-over tables line at the top, then each row (text as a text part; a tap as its tap line plus
 * its JSON as a data part; tables results as the data part `{svc:"tables", ...}`).
 *
 * @example
 * ```ts
 * const m = buildTurnMessage({ agentId: 'a1', rows: [{ id: 'r1', text: 'hi' }], graphFramework: false, formatTapLine });
 * m.parts; // [{ kind: 'text', text: 'hi' }]
 * ```
 */
export function buildTurnMessage(input: TurnMessageInput): Message {
  const { rows, guide } = input;
  const newTask = input.taskId === undefined;
  const parts: Part[] = [];
  const metaTables = rows.flatMap((r) => (r.metaTables ? [r.metaTables] : []));
  const tables = rows.flatMap((r) =>
    r.tables ? [{ kind: 'data' as const, data: { ...r.tables, svc: 'tables' } }] : [],
  );
  if (input.graphFramework) {
    const words = [
      ...metaTables,
      ...rows.flatMap((r) => [r.text, tapLine(r, input.formatTapLine)].filter(Boolean)),
    ];
    parts.push({ kind: 'text', text: words.join('\n') });
    const data: Record<string, unknown> = {};
    if (newTask && guide) data.svc_channel_guide = { version: guide.version, body: guide.text };
    const events = rows.flatMap((r) =>
      r.tap ? [{ id: r.tap.id, preset: r.tap.preset, value: r.tap.value, row: r.id }] : [],
    );
    if (events.length > 0) data.svc_events = events;
    if (Object.keys(data).length > 0) parts.push({ kind: 'data', data });
    parts.push(...tables);
  } else {
    if (newTask && guide) {
      parts.push({
        kind: 'text',
        text: guide.text,
        metadata: { svc: 'channel_guide', version: guide.version },
      });
    }
    if (metaTables.length > 0) parts.push({ kind: 'text', text: metaTables.join('\n') });
    for (const row of rows) {
      if (row.text) parts.push({ kind: 'text', text: row.text });
      if (row.tap) {
        parts.push({ kind: 'text', text: tapLine(row, input.formatTapLine) });
        parts.push({ kind: 'data', data: row.tap });
      }
    }
    parts.push(...tables);
  }
  const message: Message = {
    messageId: deriveMessageId(
      input.agentId,
      rows.map((r) => r.id),
    ),
    role: 'user',
    parts,
    contextId: input.agentId,
  };
  if (input.taskId !== undefined) message.taskId = input.taskId;
  return message;
}
