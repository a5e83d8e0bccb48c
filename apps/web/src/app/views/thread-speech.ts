// What a screen reader gets in a thread: a heading per screen (to jump between them), a skip link to the
// newest one, and a polite live line that says each new message once (never the whole thread, never a timer).
import type { Op } from '@screen-service/screen-lines';
import { el } from '../../shared/dom.js';
import type { Message } from '../api.js';

/** Props that name a component, in the order a person would call it by. */
const NAMING_PROPS = ['question', 'title', 'prompt', 'label', 'caption', 'text'] as const;

/** The words of a screen a person would call it by: svc_show's text, else its first question or title. */
export function screenTitle(ops: readonly Op[], text: string): string {
  if (text.trim()) return text.trim();
  for (const op of ops) {
    if (op.op !== 'add') continue;
    for (const key of NAMING_PROPS) {
      const value = op.props[key];
      if (typeof value === 'string' && value.trim())
        return value
          .replace(/[*_`#]/g, '')
          .trim()
          .slice(0, 80);
    }
  }
  return 'a screen';
}

/**
 * The heading of one screen in the thread: visually hidden (the screen and its chat line show what it is),
 * focusable from the skip link.
 */
export function screenHeading(agentName: string, ops: readonly Op[], text: string): HTMLHeadingElement {
  return el(
    'h2',
    { class: 'sr-only screen-heading', tabindex: -1 },
    `${agentName}: ${screenTitle(ops, text)}`,
  );
}

/** What the live line says for one message, or nothing (the person's own messages and taps are not read back). */
export function spokenMessage(m: Message, agentName: string): string {
  if (m.sender === 'person' || m.kind === 'tap') return '';
  if (m.kind === 'screen' && m.screen) {
    const text = typeof m.meta.text === 'string' ? m.meta.text : '';
    return `${agentName} sent a screen: ${screenTitle(m.screen.ops as Op[], text)}`;
  }
  return `${agentName}: ${m.body}`;
}

/** The polite live line of a thread; `say` replaces what it said with the new messages only. */
export function newsLine(): { el: HTMLElement; say(messages: Message[], agentName: string): void } {
  const line = el('div', { class: 'sr-only thread-news', role: 'status', 'aria-live': 'polite' });
  return {
    el: line,
    say(messages, agentName) {
      const said = messages.map((m) => spokenMessage(m, agentName)).filter(Boolean);
      if (said.length > 0) line.replaceChildren(...said.map((s) => el('p', {}, s)));
    },
  };
}
