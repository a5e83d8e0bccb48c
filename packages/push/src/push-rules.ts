// The pure rules of a buzz: whether a new row pushes, what the notification says, how a burst of rows for
// one thread collapses into one push, and how long to wait before trying a push service again.
import { backoffDelay } from '@screen-service/io-kit/backoff';
import type { MessageRecord, ScreenRecord } from '@screen-service/registry/model';

/** How long a device's "thread open" lasts without being renewed (the app renews it every minute). */
export const PRESENCE_TTL_MS = 2 * 60_000;
/** After a buzz for a thread, later rows of that thread wait this long and go out as one update. */
export const DEFAULT_COLLAPSE_WINDOW_MS = 5_000;
/** A buzz older than this is worth nothing to the person: the push service may drop it (RFC 8030 TTL). */
export const MESSAGE_TTL_SECONDS = 12 * 3600;
/** The silent list refresh of a revoked grant keeps a day. */
export const REVOKED_TTL_SECONDS = 24 * 3600;
/** Tries per queued push before it is given up (about 2 hours with the default back-off). */
export const MAX_PUSH_ATTEMPTS = 10;
const MAX_TEXT = 120;

/** What decides a buzz for one new agent row (doc1 Events; doc2 push_muted of the agent and of a grant). */
export interface BuzzInput {
  /** The thread is open on at least one of the person's devices. */
  open: boolean;
  /** The agent's `push_muted` (the owner's switch). */
  agentMuted: boolean;
  /** The grant's `push_muted` when the thread is a granted (shared) one; the holder's own switch. */
  grantMuted?: boolean;
}

/**
 * True when the row should buzz the person's phones: the thread is open nowhere and neither the agent nor
 * (for a shared thread) the grant holder muted it. A grant's thread follows the grant's switch only: the
 * owner's mute is the owner's own phone.
 *
 * @example
 * ```ts
 * shouldBuzz({ open: false, agentMuted: false }); // true
 * shouldBuzz({ open: true, agentMuted: false }); // false
 * ```
 */
export function shouldBuzz(input: BuzzInput): boolean {
  if (input.open) return false;
  const muted = input.grantMuted !== undefined ? input.grantMuted : input.agentMuted;
  return !muted;
}

/** The JSON the service worker receives (encrypted) in a push. */
export type PushPayload =
  | {
      kind: 'message';
      agent_id: string;
      /** The notification's title: the agent's name. */
      title: string;
      /** The first line of the text, or the screen's title. */
      body: string;
      /** One notification per thread: a later push replaces the earlier one. */
      tag: string;
      /** Where a tap on the notification goes (the thread, in the app). */
      url: string;
      /** How many rows this push stands for (a collapsed burst counts more than one). */
      count: number;
      message_id: string;
      /** The screen the row put up (a tap opens it scrolled into view); absent for a chat line. */
      screen_id?: string;
      /** A one-tap screen's choices (issue 39): each action answers with its value, without the app. */
      actions?: { action: string; title: string; value: string | number | boolean }[];
      /** How to answer with an action: POST `url` with `{token, screen_id, value}` (the token works once). */
      answer?: { url: string; token: string; expires_at: string };
      /**
       * Time-sensitive (ADR 0306): the agent marked the ask urgent, or its deadline's `urgent` step came (the
       * body then starts with the time left). The device keeps the notification until the person acts on it.
       */
      urgent?: true;
    }
  /** The quiet replacement of a notification whose screen was answered elsewhere (same tag, no alert). */
  | {
      kind: 'stale';
      agent_id: string;
      title: string;
      body: string;
      tag: string;
      url: string;
      screen_id: string;
    }
  | { kind: 'revoked'; agent_id: string };

/** The tag of a thread's notification (and the basis of its RFC 8030 Topic). */
export function threadTag(agentId: string): string {
  return `thread-${agentId}`;
}

/** The app's address of a thread (hash routing of apps/web); with a screen, the app scrolls it into view. */
export function threadUrl(appUrl: string, agentId: string, screenId?: string | null): string {
  const screen = screenId ? `?screen=${encodeURIComponent(screenId)}` : '';
  return `${appUrl.replace(/\/+$/, '')}/#/a/${encodeURIComponent(agentId)}${screen}`;
}

function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line;
}

const TITLE_KEYS = ['title', 'question', 'text', 'label', 'prompt', 'caption'];

/** The words a screen leads with: the first component's title, question, text or label. */
export function screenTitle(ops: unknown[]): string | null {
  for (const op of ops as Record<string, unknown>[]) {
    if (op?.op !== 'add') continue;
    for (const bag of [op.props, op.args, op] as unknown[]) {
      if (typeof bag !== 'object' || bag === null) continue;
      for (const key of TITLE_KEYS) {
        const v = (bag as Record<string, unknown>)[key];
        if (typeof v === 'string' && v.trim() !== '') return firstLine(v);
      }
    }
  }
  return null;
}

/**
 * The notification body for a row: a chat line's first line; for a screen, the chat line sent with it,
 * else the screen's title, else "New screen". A collapsed burst adds how many more there are.
 */
export function notificationBody(message: MessageRecord, screen: ScreenRecord | null, count: number): string {
  let body: string;
  if (message.kind === 'screen') {
    const text = typeof message.meta.text === 'string' ? firstLine(message.meta.text) : '';
    body = text || (screen ? screenTitle(screen.ops) : null) || 'New screen';
  } else {
    body = firstLine(message.body) || 'New message';
  }
  return count > 1 ? `${body} (+${count - 1} more)` : body;
}

const PUSH_BACKOFF = { baseMs: 1000, maxMs: 600_000, jitter: [1, 1.2] } as const;

/**
 * When to try a push service again: its `Retry-After` when it gave one (capped at an hour), else an
 * exponential back-off from one second, doubled per attempt, capped at ten minutes, with up to 20% jitter
 * so a fleet of queued pushes does not return at the same instant.
 *
 * @param attempts tries made so far (1 after the first failure)
 * @param jitter a number in [0, 1) from the injected randomness
 */
export function retryDelayMs(attempts: number, retryAfterMs: number | undefined, jitter: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, 3_600_000);
  return backoffDelay(PUSH_BACKOFF, Math.max(1, attempts), jitter);
}
