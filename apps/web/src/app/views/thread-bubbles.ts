// The messages of a thread as list items: chat lines with markdown, photos, screens with their tables and taps.
import type { Op, TapEvent } from '@screen-service/screen-lines';
import { renderMarkdown, renderScreen, type ScreenHandle, type ScreenTap } from '@screen-service/screen-view';
import { el } from '../../shared/dom.js';
import { applyLook } from '../../shared/look.js';
import type { Agent, Message } from '../api.js';
import { answer, type KeptPhoto, screenPhoto } from '../outbox.js';
import { deviceId } from '../push-device.js';
import { problem } from '../shell.js';
import type { threadTables } from '../thread-tables.js';
import { type DeadlineEnd, deadlineNote, withdrawnNote } from './thread-deadline.js';
import { screenHeading } from './thread-speech.js';

/**
 * A photo sized before it loads: the service's link carries the size read at upload (`#w=1200&h=900`), so
 * the thread lays it out at its final height and nothing below moves when the bytes arrive (issue 38).
 */
function photo(src: string, alt: string): HTMLImageElement {
  const size = /#w=(\d+)&h=(\d+)$/.exec(src);
  return el('img', {
    src,
    alt,
    class: 'photo',
    decoding: 'async',
    ...(size ? { width: Number(size[1]), height: Number(size[2]) } : {}),
  });
}

/**
 * What an agent said, with its markdown drawn (`**Open**` reads as bold Open, a `- ` line as a list item):
 * agents, and the models behind native agents, write markdown. Text only, never HTML.
 */
function said(text: string, className: string): HTMLElement {
  const box = renderMarkdown(document, text);
  box.className = `${className} svc-md`;
  return box;
}

/** The table lines of a screen the service refused (ADR 0250): the person reads which line and why. */
function refusedNote(meta: Record<string, unknown>): HTMLElement | null {
  const refused = Array.isArray(meta.tables_refused)
    ? (meta.tables_refused as { line?: unknown; error?: unknown }[])
    : [];
  if (refused.length === 0) return null;
  return el(
    'div',
    { class: 'svc-note svc-tables-error', role: 'note' },
    el('p', {}, refused.length === 1 ? 'Not saved:' : `${refused.length} lines not saved:`),
    el(
      'ul',
      {},
      ...refused.map((r) => el('li', {}, el('code', {}, String(r.line ?? '')), ` ${String(r.error ?? '')}`)),
    ),
  );
}

/** A tap's value as the person reads it while it waits to be sent. */
const tapLabel = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? ''));

export const tapOf = (m: Message): TapEvent | null =>
  m.kind === 'tap' && m.meta.event && typeof m.meta.event === 'object' ? (m.meta.event as TapEvent) : null;

/** What drawing a thread's messages needs from its view. */
export interface BubbleDeps {
  agentId: string;
  agent(): Agent | undefined;
  /** The image CDN (SVC_IMAGE_CDN, ADR 0111) for `image prompt=`. */
  cdn(): ((prompt: string) => string) | undefined;
  tables: ReturnType<typeof threadTables>;
  /** Where a failed tap says why. */
  status: HTMLElement;
}

/** Draws messages; keeps the screens drawn and the taps read so far (a screen drawn later starts answered). */
export function threadBubbles(deps: BubbleDeps) {
  const { agentId, tables } = deps;
  const screens = new Map<string, ScreenHandle>();
  const photoIdOf = new Map<string, string>();
  /** A screen field's photos kept on this phone (offline), by the local link the field shows (ADR 0287). */
  const keptPhotos = new Map<string, KeptPhoto>();
  /** Taps read with a page, keyed by screen, so a screen drawn later in the same page starts answered. */
  const pendingAnswers = new Map<string, TapEvent[]>();
  /** Screens with a deadline still counting: a tap row that arrives ends their countdown (ADR 0260). */
  const deadlines = new Map<string, (end: DeadlineEnd) => void>();
  /** How each screen's deadline ended, read with a page (a default wins over an earlier answer). */
  const ends = new Map<string, DeadlineEnd>();
  const endOf = (e: TapEvent, meta: Message['meta']): DeadlineEnd =>
    e.decided_by === 'agent'
      ? { by: 'agent' }
      : e.decided_by === 'default'
        ? { by: 'default', echo: e.value === 'expired' ? '' : String(meta.echo ?? e.value) }
        : e.decided_by === 'escalation' && typeof meta.by_name === 'string'
          ? { by: 'holder', name: meta.by_name }
          : { by: 'person' };
  /** A withdraw (ADR 0279) marks the screen on this page, if it is drawn, beside its item. */
  const markWithdrawn = (screenId: string) => {
    const handle = screens.get(screenId);
    const note = handle ? withdrawnNote(handle.element) : null;
    if (handle && note) handle.element.after(note);
  };

  async function onTap(screenId: string, tap: ScreenTap): Promise<void> {
    const { event } = tap;
    if (event.preset === 'query' && event.op === 'row' && typeof event.table === 'string') {
      void tables.writeRow(event.table, String(event.key), event.values as Record<string, boolean>);
    }
    const { photos, screen: _screen, ...rest } = event;
    const links = Array.isArray(photos) ? photos.map(String) : [];
    const photo_ids = links.map((u) => photoIdOf.get(u)).filter((x): x is string => !!x);
    // Photos the field could not upload go with the answer: the queue uploads them first, with their keys.
    const kept = links.map((u) => keptPhotos.get(u)).filter((x): x is KeptPhoto => !!x);
    try {
      const body = {
        screen_id: screenId,
        event: rest,
        ...(photo_ids.length ? { photo_ids } : {}),
        // The receipt names the device that tapped (the id presence uses).
        device: deviceId(),
      };
      await answer({
        agentId,
        kind: 'tap',
        body,
        // A photo field's value is the count of photos: "✓ 1 photo" as its screen says, not "✓ 1".
        label:
          links.length > 0
            ? `✓ ${links.length} photo${links.length === 1 ? '' : 's'}`
            : `✓ ${tapLabel(rest.value)}`,
        ...(kept.length > 0 ? { photos: kept.map((k) => k.photo), photoKeys: kept.map((k) => k.key) } : {}),
      });
    } catch (error) {
      deps.status.replaceChildren(problem(error));
    }
  }

  function tapItem(m: Message): HTMLElement | null {
    const event = tapOf(m);
    if (m.meta.quiet || !event) return null;
    const counting = deadlines.get(String(event.screen ?? m.screen?.id));
    if (counting) counting(endOf(event, m.meta));
    // The agent took the screen back: no bubble, the screen itself says "Withdrawn".
    if (event.decided_by === 'agent') {
      if (!counting) markWithdrawn(String(event.screen ?? m.screen?.id));
      return null;
    }
    // A screen drawn in this thread shows its own answer ("✓ Pasta bake") under the component: the tap
    // row adds only the photos sent with it. A tap on a screen older than the loaded page shows its echo.
    const screenId = (event.screen as string | undefined) ?? m.screen?.id;
    const onScreen = screenId !== undefined && screens.has(screenId);
    if (onScreen && m.photos.length === 0) return null;
    return el(
      'li',
      { class: 'msg mine tap', 'data-seq': m.seq },
      onScreen ? null : el('p', { class: 'echo' }, `✓ ${String(m.meta.echo ?? '')}`),
      ...m.photos.map((src) => photo(src, 'Photo you sent')),
    );
  }

  function screenItem(m: Message & { screen: NonNullable<Message['screen']> }, item: HTMLElement) {
    const id = m.screen.id;
    const ops = m.screen.ops as Op[];
    // svc_show's `text` is stored in meta.text (the body holds the lines): the chat line above the screen.
    const line = typeof m.meta.text === 'string' && m.meta.text.trim() ? m.meta.text : '';
    if (line) item.append(said(line, 'bubble screen-text'));
    else if (m.body && m.body !== m.screen.lines) item.append(said(m.body, 'bubble'));
    const cdn = deps.cdn();
    const handle = renderScreen(ops, {
      screen: id,
      onTap: (tap) => void onTap(id, tap),
      query: tables.queryFor(id),
      onTheme: (look) => {
        const agent = deps.agent();
        if (agent) applyLook({ ...agent.theme, ...look }, agent.handle);
      },
      uploadPhotos: async (files) => {
        const done = await Promise.all(files.map((f) => screenPhoto(agentId, f)));
        for (const d of done) {
          if (d.kept) keptPhotos.set(d.url, d.kept);
          else photoIdOf.set(d.url, d.id);
        }
        return done.map((d) => d.url);
      },
      answers: pendingAnswers.get(id) ?? [],
      ...(cdn ? { imageFromPrompt: cdn } : {}),
    });
    // Each screen opens with a (visually hidden) heading: a screen reader jumps from screen to screen by it.
    handle.element.prepend(screenHeading(deps.agent()?.name ?? 'The agent', ops, line));
    const refused = refusedNote(m.meta);
    if (refused) handle.element.append(refused);
    const deadline = deadlineNote(m.meta, handle.element, ends.get(id) ?? null);
    if (deadline) {
      deadlines.set(id, (end) => {
        deadline.settle(end);
        deadlines.delete(id);
      });
    }
    screens.set(id, handle);
    void tables.track(id, ops, handle);
    item.append(handle.element);
    // Beside the screen, not in it: the note stays readable when the screen turns inert.
    if (deadline) item.append(deadline.element);
    else if (ends.get(id)?.by === 'agent') markWithdrawn(id);
    return item;
  }

  function bubble(m: Message): HTMLElement | null {
    const mine = m.sender === 'person';
    if (m.kind === 'tap') return tapItem(m);
    const item = el('li', { class: `msg ${mine ? 'mine' : 'theirs'}`, 'data-seq': m.seq });
    if (m.kind === 'screen' && m.screen) return screenItem(m as Parameters<typeof screenItem>[0], item);
    item.append(
      mine ? el('p', { class: 'bubble' }, m.body) : said(m.body, 'bubble'),
      ...m.photos.map((src) => photo(src, mine ? 'Photo you sent' : 'Photo')),
    );
    return item;
  }

  return {
    screens,
    /** Remembers the taps of a page so their screens draw answered, wherever in the pages they are. */
    noteTaps(messages: Message[]): void {
      for (const m of messages) {
        const event = tapOf(m);
        const screenId = (event?.screen as string | undefined) ?? m.screen?.id;
        const withdraw = event?.decided_by === 'agent';
        if (event && screenId && !withdraw) {
          pendingAnswers.set(screenId, [...(pendingAnswers.get(screenId) ?? []), event]);
        }
        if (event && screenId && !m.meta.quiet) {
          const end = endOf(event, m.meta);
          // A withdraw or a default ends the screen whatever came before.
          if (end.by !== 'person' || !ends.has(screenId)) ends.set(screenId, end);
        }
      }
    },
    /** One message's item; a message that cannot be drawn shows a note in its place and never stops the others. */
    draw(m: Message): HTMLElement | null {
      try {
        return bubble(m);
      } catch {
        return el(
          'li',
          { class: 'msg theirs broken', 'data-seq': m.seq },
          el('p', { class: 'bubble svc-note', role: 'note' }, 'This message could not be shown.'),
        );
      }
    },
  };
}
