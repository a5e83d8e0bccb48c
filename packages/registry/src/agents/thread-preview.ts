// One line per thread for the person's list: what the newest row says, as a messaging app's list shows it.
import type { MessageRecord, ScreenRecord } from '../model/records.js';

/** Longest preview line in the list. */
const PREVIEW_CHARS = 120;

/** The first non-empty line of a text, trimmed ('' for anything else). */
function firstLine(text: unknown): string {
  if (typeof text !== 'string') return '';
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  );
}

const TITLE_KEYS = ['title', 'question', 'text', 'label', 'prompt', 'caption'];

/**
 * The words a screen leads with: its first component's title, question, text or label. The same reading as
 * the push body's (core's push rules); kept here because the registry sits below core and cannot import it.
 */
function leadingWords(ops: readonly unknown[]): string {
  for (const op of ops as Record<string, unknown>[]) {
    if (op?.op !== 'add') continue;
    for (const bag of [op.props, op.args, op] as unknown[]) {
      if (typeof bag !== 'object' || bag === null) continue;
      for (const key of TITLE_KEYS) {
        const line = firstLine((bag as Record<string, unknown>)[key]);
        if (line !== '') return line;
      }
    }
  }
  return '';
}

/**
 * The preview of a thread's newest row: a chat line's first line; a screen's chat line, else its title; a
 * tap's `✓ echo`; `Photo` for a photo sent alone. At most 120 characters.
 *
 * @example
 * ```ts
 * previewOf(row, screen); // 'Lunch today?'
 * ```
 */
export function previewOf(row: MessageRecord, screen: ScreenRecord | undefined): string {
  let text: string;
  if (row.kind === 'screen')
    text = firstLine(row.meta.text) || (screen ? leadingWords(screen.ops) : '') || 'Screen';
  else if (row.kind === 'tap') text = `✓ ${firstLine(row.meta.echo) || 'Answered'}`;
  else text = row.body === '(photo)' ? 'Photo' : firstLine(row.body);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}
