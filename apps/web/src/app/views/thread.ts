// One agent's thread: chat lines and screens arriving live, taps, typed replies with photos, `/` commands.
import type { Op, TapEvent } from '@screen-service/screen-lines';
import { renderMarkdown, renderScreen, type ScreenHandle, type ScreenTap } from '@screen-service/screen-view';
import { el } from '../../shared/dom.js';
import { applyLook } from '../../shared/look.js';
import { type Agent, ApiError, appConfig, call, type Message, promptImages } from '../api.js';
import { goneLine, markGone, noteShared } from '../gone-shares.js';
import { holdPresence } from '../push-device.js';
import { chip, problem, statusLine, type View } from '../shell.js';
import { threadTables } from '../thread-tables.js';
import { commandMenu } from './commands.js';
import { followNewest } from './follow-newest.js';
import { newsLine, screenHeading } from './thread-speech.js';

/** A camera outline (SVG: no emoji font needed). */
function cameraIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const icon = document.createElementNS(ns, 'svg');
  icon.setAttribute('viewBox', '0 0 24 24');
  icon.setAttribute('class', 'icon');
  icon.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M4 8h3l2-3h6l2 3h3v11H4zM12 10.5a3.5 3.5 0 1 0 0 7a3.5 3.5 0 0 0 0-7z');
  icon.append(path);
  return icon;
}

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

/** Uploads one picked image; returns its id and signed link. */
async function upload(agentId: string, file: File): Promise<{ id: string; url: string }> {
  return call<{ id: string; url: string }>('POST', `/agents/${agentId}/photos`, undefined, file);
}

export function threadView(agentId: string): View {
  let releasePresence: (() => void) | undefined;
  // Not a live region: the whole list would be read on every change (and a running timer changes it every
  // second). The news line says each new message once instead.
  const log = el('ol', { class: 'thread', 'aria-label': 'Messages' });
  const news = newsLine();
  // The agent's chip, name and status head the page once, in the top bar (not again above the messages).
  // The heading element stays put when the agent loads, so a focus the view gave it is kept.
  const title = el('h1', { class: 'agent-name', tabindex: -1 }, 'Thread');
  const chipSlot = el('span', { class: 'chip-slot' });
  const statusSlot = el('span', { class: 'status-slot' });
  const header = el(
    'div',
    { class: 'thread-head' },
    chipSlot,
    el('div', { class: 'thread-title' }, title, statusSlot),
  );
  const screens = new Map<string, ScreenHandle>();
  const seen = new Set<string>();
  const photoIdOf = new Map<string, string>();
  const tables = threadTables(agentId, {
    report: (screen_id, events) =>
      void call('POST', `/agents/${agentId}/table-events`, { screen_id, events }).catch(() => {}),
  });
  let lastSeq = 0;
  let agent: Agent | undefined;
  let closed = false;
  /** The image CDN (SVC_IMAGE_CDN, ADR 0111) for `image prompt=`; read before the first screen is drawn. */
  let cdn: ((prompt: string) => string) | undefined;

  const status = el('div', { 'aria-live': 'polite' });
  // doc3: while a host works on a turn the person sees a working row; the answer (or its lapse) clears it.
  const working = el(
    'p',
    { class: 'working', role: 'status' },
    el('span', { class: 'dots', 'aria-hidden': 'true' }),
    ' working…',
  );
  working.hidden = true;
  let workingTimer: ReturnType<typeof setTimeout> | undefined;
  function setWorking(until: unknown): void {
    clearTimeout(workingTimer);
    const left = typeof until === 'string' ? Math.min(Date.parse(until) - Date.now(), 120_000) : 0;
    // A server clock ahead of this device still shows the row for its full two minutes at most.
    const ms = Number.isNaN(left) ? 0 : typeof until === 'string' && left <= 0 ? 120_000 : left;
    working.hidden = ms <= 0;
    working.firstElementChild?.nextSibling?.replaceWith(` ${agent?.name ?? 'The agent'} is working…`);
    if (ms > 0) workingTimer = setTimeout(() => setWorking(null), ms);
  }
  const text = el('textarea', {
    id: 'composer',
    class: 'svc-input composer-text',
    rows: 1,
    placeholder: 'Message',
    'aria-label': 'Message',
    autocomplete: 'off',
  });
  const file = el('input', {
    id: 'attach',
    type: 'file',
    accept: 'image/*',
    capture: 'environment',
    multiple: true,
    class: 'sr-only',
  });
  const attached = el('div', { class: 'attached', 'aria-live': 'polite' });
  const send = el('button', { type: 'submit', class: 'svc-btn svc-primary' }, 'Send');
  const menu = commandMenu(text, () => agent?.commands ?? null);
  let picked: File[] = [];
  const pill = el('button', { type: 'button', class: 'new-pill', hidden: true }, 'New ↓');
  const follow = followNewest(log, pill);
  const composer = el(
    'form',
    { class: 'composer' },
    pill,
    menu.el,
    attached,
    el(
      'div',
      { class: 'composer-row' },
      // The (hidden) file input comes first so its keyboard focus can ring the visible button after it.
      file,
      el(
        'label',
        { for: 'attach', class: 'svc-btn attach', title: 'Attach a photo' },
        cameraIcon(),
        el('span', { class: 'sr-only' }, 'Attach a photo'),
      ),
      text,
      send,
    ),
    status,
  );

  const tapOf = (m: Message): TapEvent | null =>
    m.kind === 'tap' && m.meta.event && typeof m.meta.event === 'object' ? (m.meta.event as TapEvent) : null;

  async function onTap(screenId: string, tap: ScreenTap): Promise<void> {
    const { event } = tap;
    if (event.preset === 'query' && event.op === 'row' && typeof event.table === 'string') {
      void tables.writeRow(event.table, String(event.key), event.values as Record<string, boolean>);
    }
    const { photos, screen: _screen, ...rest } = event;
    const photo_ids = Array.isArray(photos)
      ? photos.map((u) => photoIdOf.get(String(u))).filter((x): x is string => !!x)
      : [];
    try {
      await call('POST', `/agents/${agentId}/taps`, {
        screen_id: screenId,
        event: rest,
        ...(photo_ids.length ? { photo_ids } : {}),
      });
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  }

  function bubble(m: Message): HTMLElement | null {
    const mine = m.sender === 'person';
    if (m.kind === 'tap') {
      const event = tapOf(m);
      if (m.meta.quiet || !event) return null;
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
    const item = el('li', { class: `msg ${mine ? 'mine' : 'theirs'}`, 'data-seq': m.seq });
    if (m.kind === 'screen' && m.screen) {
      const id = m.screen.id;
      const ops = m.screen.ops as Op[];
      // svc_show's `text` is stored in meta.text (the body holds the lines): the chat line above the screen.
      const line = typeof m.meta.text === 'string' && m.meta.text.trim() ? m.meta.text : '';
      if (line) item.append(said(line, 'bubble screen-text'));
      else if (m.body && m.body !== m.screen.lines) item.append(said(m.body, 'bubble'));
      const handle = renderScreen(ops, {
        screen: id,
        onTap: (tap) => void onTap(id, tap),
        query: tables.queryFor(id),
        onTheme: (look) => agent && applyLook({ ...agent.theme, ...look }, agent.handle),
        uploadPhotos: async (files) => {
          const done = await Promise.all(files.map((f) => upload(agentId, f)));
          for (const d of done) photoIdOf.set(d.url, d.id);
          return done.map((d) => d.url);
        },
        answers: pendingAnswers.get(id) ?? [],
        ...(cdn ? { imageFromPrompt: cdn } : {}),
      });
      // Each screen opens with a (visually hidden) heading: a screen reader jumps from screen to screen by it.
      handle.element.prepend(screenHeading(agent?.name ?? 'The agent', ops, line));
      screens.set(id, handle);
      void tables.track(id, ops, handle);
      item.append(handle.element);
      return item;
    }
    item.append(
      mine ? el('p', { class: 'bubble' }, m.body) : said(m.body, 'bubble'),
      ...m.photos.map((src) => photo(src, mine ? 'Photo you sent' : 'Photo')),
    );
    return item;
  }

  /** One message's bubble; a message that cannot be drawn shows a note in its place and never stops the others. */
  function isolated(m: Message): HTMLElement | null {
    try {
      return bubble(m);
    } catch {
      return el(
        'li',
        { class: 'msg theirs broken', 'data-seq': m.seq },
        el('p', { class: 'bubble svc-note', role: 'note' }, 'This message could not be shown.'),
      );
    }
  }

  /** Taps read with a page, keyed by screen, so a screen drawn later in the same page starts answered. */
  const pendingAnswers = new Map<string, TapEvent[]>();

  /** Draws messages not drawn yet; `announce` says the new ones on the news line (not on first load). */
  function add(messages: Message[], mine = false, announce = false): void {
    const added: HTMLElement[] = [];
    const fresh: Message[] = [];
    for (const m of messages) {
      const event = tapOf(m);
      const screenId = (event?.screen as string | undefined) ?? m.screen?.id;
      if (event && screenId) pendingAnswers.set(screenId, [...(pendingAnswers.get(screenId) ?? []), event]);
    }
    for (const m of messages.sort((a, b) => a.seq - b.seq)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      fresh.push(m);
      lastSeq = Math.max(lastSeq, m.seq);
      const event = tapOf(m);
      const screenId = (event?.screen as string | undefined) ?? m.screen?.id;
      if (event && screenId) screens.get(screenId)?.answer(event);
      const node = isolated(m);
      if (node) {
        log.append(node);
        added.push(node);
      }
    }
    follow.arrived(added, mine);
    if (announce) news.say(fresh, agent?.name ?? 'The agent');
  }

  let loaded = false;
  async function loadNewest(): Promise<void> {
    const page = await call<{ messages: Message[] }>('GET', `/agents/${agentId}/messages?limit=50`);
    add(page.messages, false, loaded);
    loaded = true;
    if (lastSeq > 0) void call('POST', `/agents/${agentId}/read`, { seq: lastSeq }).catch(() => {});
  }

  // A revoked grant closes the thread with the same line the list shows (doc2 Events); opened after the
  // revoke, the service's refusal names the agent.
  function closeShared(said?: string): void {
    closed = true;
    markGone(agentId);
    const line = goneLine(agentId) ?? said ?? 'This agent is no longer shared with you';
    log.replaceChildren(el('li', { class: 'gone-share', role: 'status' }, line));
    composer.remove();
  }

  async function loadAgent(): Promise<void> {
    try {
      agent = await call<Agent>('GET', `/agents/${agentId}`);
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'agent_not_yours' || (error.status === 404 && agent?.shared))
      ) {
        closeShared(error.code === 'agent_not_yours' ? error.message : undefined);
        return;
      }
      throw error;
    }
    if (agent.shared) noteShared(agent.id, agent.name);
    applyLook(agent.theme, agent.handle);
    document.title = `${agent.name} · Screen Service`;
    // A gone or silent agent is not working on anything, whatever the last working row said.
    if (agent.status !== 'connected') setWorking(null);
    chipSlot.replaceChildren(chip(agent, 32));
    title.textContent = agent.name;
    statusSlot.replaceChildren(
      agent.shared
        ? el(
            'span',
            { class: 'svc-muted small shared-by' },
            agent.presence === 'paused' ? 'Paused by its owner' : `shared by ${agent.shared_by}`,
          )
        : statusLine(agent),
    );
  }

  composer.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = text.value.trim();
    if (!body && picked.length === 0) return;
    send.disabled = true;
    status.replaceChildren();
    // What this send carries: a photo picked or text typed while it is on its way stays for the next one.
    const sending = picked;
    try {
      const photo_ids = (await Promise.all(sending.map((f) => upload(agentId, f)))).map((p) => p.id);
      const m = await call<Message>('POST', `/agents/${agentId}/messages`, {
        text: body || '(photo)',
        ...(photo_ids.length ? { photo_ids } : {}),
      });
      if (text.value.trim() === body) text.value = '';
      picked = picked.filter((f) => !sending.includes(f));
      attached.replaceChildren(...picked.map((f) => el('span', { class: 'tag' }, f.name)));
      add([m], true);
    } catch (error) {
      status.replaceChildren(problem(error));
    } finally {
      send.disabled = false;
      // Disabling the pressed Send button dropped the focus to the page; the next thing is the message box.
      if (document.activeElement === document.body) text.focus();
    }
  });
  text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !menu.open()) {
      e.preventDefault();
      composer.requestSubmit();
    }
  });
  file.addEventListener('change', () => {
    picked = [...(file.files ?? [])].slice(0, 8);
    attached.replaceChildren(...picked.map((f) => el('span', { class: 'tag' }, f.name)));
  });

  void (async () => {
    try {
      const [config] = await Promise.all([appConfig(), loadAgent()]);
      cdn = promptImages(config);
      if (closed) return;
      await loadNewest();
      releasePresence = holdPresence(agentId);
    } catch (error) {
      log.replaceChildren(el('li', {}, problem(error)));
    }
  })();

  return {
    title: 'Thread',
    back: '#/',
    actions: [
      el('a', { href: `#/a/${agentId}/settings`, class: 'icon-link', 'aria-label': 'Agent settings' }, '⚙'),
    ],
    heading: header,
    body: el('div', { class: 'thread-view' }, log, working, composer, news.el),
    skip: {
      label: 'Skip to the newest screen',
      target: () => [...log.querySelectorAll<HTMLElement>('.screen-heading')].at(-1) ?? text,
    },
    leave: () => {
      follow.stop();
      clearTimeout(workingTimer);
      for (const s of screens.values()) s.destroy();
      releasePresence?.();
      applyLook({});
    },
    onEvent: (type, data) => {
      if (closed) return;
      if ((type === 'message' && data.agent_id === agentId) || type === 'resync') void loadNewest();
      if (type === 'agents') void loadAgent().catch(() => {});
      if (type === 'working' && data.agent_id === agentId) setWorking(data.working_until);
    },
  };
}
