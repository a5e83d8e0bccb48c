// The app frame: a top bar, a main area, live stream wiring and small shared pieces (agent chip, status).
import { AGENT_COLOR_HEX } from '@screen-service/theme';
import { el } from '../shared/dom.js';
import type { Agent } from './api.js';

/** What a view gets: where to draw, how to navigate, and the live stream. */
export interface View {
  title: string;
  back?: string;
  actions?: HTMLElement[];
  body: HTMLElement;
  /** Called when the view is left (stop timers, close presence). */
  leave?: () => void;
  /** Stream events while the view is shown. */
  onEvent?: (type: string, data: Record<string, unknown>) => void;
}

export function go(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/** The agent's initial on its colour (dark ink: all agent colours are pastels). */
export function chip(agent: Pick<Agent, 'name' | 'color'>, size = 40): HTMLElement {
  const hex = AGENT_COLOR_HEX[agent.color] ?? '#cccccc';
  return el(
    'span',
    {
      class: 'chip',
      style: `background:${hex};color:${agent.color === 'brand' ? '#ffffff' : '#1f1d2b'};width:${size}px;height:${size}px`,
      'aria-hidden': 'true',
    },
    (agent.name.trim()[0] ?? '?').toUpperCase(),
  );
}

const STATUS_TEXT = { pending: 'Waiting for pairing', connected: 'Connected', offline: 'Offline' } as const;

export function statusLine(agent: Pick<Agent, 'status'>): HTMLElement {
  return el(
    'span',
    { class: `status status-${agent.status}` },
    el('span', { class: 'dot', 'aria-hidden': 'true' }),
    STATUS_TEXT[agent.status],
  );
}

/** A line telling the person something went wrong (role=alert), with the server's message. */
export function problem(error: unknown): HTMLElement {
  return el('p', { class: 'problem', role: 'alert' }, error instanceof Error ? error.message : String(error));
}

/** Formats a 6-digit code as `123 456` for reading aloud and typing. */
export function spacedCode(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}
