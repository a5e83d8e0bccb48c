// The app frame: a top bar, a main area, live stream wiring and small shared pieces (agent chip, status).
import { AGENT_COLOR_HEX } from '@screen-service/theme';
import { el } from '../shared/dom.js';
import type { Agent } from './api.js';

/** What a view gets: where to draw, how to navigate, and the live stream. */
export interface View {
  title: string;
  /** Drawn in the top bar instead of a plain `<h1>` of the title (it holds its own `<h1>`). */
  heading?: HTMLElement;
  back?: string;
  actions?: HTMLElement[];
  body: HTMLElement;
  /** Called when the view is left (stop timers, close presence). */
  leave?: () => void;
  /** Stream events while the view is shown. */
  onEvent?: (type: string, data: Record<string, unknown>) => void;
  /** The page's skip link (the first Tab stop): its words and where it takes the focus. Default: the content. */
  skip?: { label: string; target: () => HTMLElement | null };
}

/**
 * Moves the keyboard focus to `target` (made focusable from script if it is not) without scrolling: after a
 * part of the page is replaced, so the focus never falls to the page body.
 */
export function focusOn(target: HTMLElement | null | undefined): void {
  if (!target) return;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

export function go(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/**
 * The agent's picture (doc2 `avatar`): null is its initial on its colour (dark ink: all agent colours are
 * pastels); `svc` is the service's own mark.
 */
export function chip(
  agent: Pick<Agent, 'name' | 'color'> & { avatar?: string | null },
  size = 40,
): HTMLElement {
  if (agent.avatar === 'svc') {
    return el(
      'span',
      { class: 'chip chip-mark', style: `width:${size}px;height:${size}px`, 'aria-hidden': 'true' },
      el('img', { src: 'icon.svg', alt: '', width: size, height: size }),
    );
  }
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

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86_400);
  return `${d} day${d === 1 ? '' : 's'} ago`;
}

/** How a status looks: `idle` is an MCP app between calls (nothing wrong), `removed` needs the person. */
export type StatusLook = 'pending' | 'connected' | 'idle' | 'offline' | 'removed';

export function statusLook(agent: Pick<Agent, 'status' | 'connector'>): StatusLook {
  if (agent.status !== 'offline') return agent.status;
  if (agent.connector?.removed_at) return 'removed';
  // An MCP app calls only when it has something to say: silence is idle, not an error (issue 38).
  return agent.connector?.kind === 'mcp' ? 'idle' : 'offline';
}

/**
 * What the status says: a removed connection says so and what to do; an MCP connection has no heartbeat,
 * so instead of "Offline" it says it is idle and when the app last called.
 */
export function statusText(agent: Pick<Agent, 'status' | 'connector'>, now = Date.now()): string {
  const c = agent.connector;
  const look = statusLook(agent);
  if (look === 'removed') return 'Connection removed · pair again in settings';
  if (look === 'idle')
    return c?.last_seen_at ? `Idle · last call ${ago(c.last_seen_at, now)}` : 'Idle · no call yet';
  return STATUS_TEXT[agent.status];
}

export function statusLine(agent: Pick<Agent, 'status' | 'connector'>): HTMLElement {
  return el(
    'span',
    { class: `status status-${statusLook(agent)}` },
    el('span', { class: 'dot', 'aria-hidden': 'true' }),
    statusText(agent),
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
