// One agent's thread: chat lines and screens arriving live, older pages on scroll, taps, typed replies, `/` commands.
import { el } from '../../shared/dom.js';
import { applyLook } from '../../shared/look.js';
import { type Agent, ApiError, appConfig, call, type Message, promptImages } from '../api.js';
import { goneLine, markGone, noteShared } from '../gone-shares.js';
import { onOutbox, pendingList } from '../outbox.js';
import { holdPresence } from '../push-device.js';
import { chip, problem, statusLine, type View } from '../shell.js';
import { threadTables } from '../thread-tables.js';
import { followNewest } from './follow-newest.js';
import { tapOf, threadBubbles } from './thread-bubbles.js';
import { threadComposer, threadHeading, workingRow } from './thread-parts.js';
import { newsLine } from './thread-speech.js';

/** Messages per page, newest first; older pages load as the person scrolls up (cursor `before`). */
const PAGE = 50;
/** How near the top (px) the person scrolls before the next older page loads. */
const OLDER_PX = 400;

interface Page {
  messages: Message[];
  next_before: number | null;
}

export function threadView(agentId: string, focusScreen?: string): View {
  let releasePresence: (() => void) | undefined;
  // Not a live region: the whole list would be read on every change (and a running timer changes it every
  // second). The news line says each new message once instead.
  const log = el('ol', { class: 'thread', 'aria-label': 'Messages' });
  const news = newsLine();
  const { title, chipSlot, statusSlot, header } = threadHeading();
  const seen = new Set<string>();
  const tables = threadTables(agentId);
  let lastSeq = 0;
  let agent: Agent | undefined;
  let closed = false;
  let cdn: ((prompt: string) => string) | undefined;
  const working = workingRow(() => agent?.name ?? 'The agent');
  const composer = threadComposer({ agentId, agent: () => agent, sent: (m) => add([m], true) });
  const bubbles = threadBubbles({
    agentId,
    agent: () => agent,
    cdn: () => cdn,
    tables,
    status: composer.status,
  });
  const follow = followNewest(log, composer.pill);
  // Answers kept on this phone; when the service acknowledged some, their rows are drawn from the page.
  const pending = pendingList(agentId);
  const acked = onOutbox(() => loaded && !closed && void loadNewest().catch(() => {}));

  /** Draws messages not drawn yet; `announce` says the new ones on the news line (not on first load). */
  function add(messages: Message[], mine = false, announce = false): void {
    const added: HTMLElement[] = [];
    const fresh: Message[] = [];
    bubbles.noteTaps(messages);
    for (const m of messages.sort((a, b) => a.seq - b.seq)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      fresh.push(m);
      lastSeq = Math.max(lastSeq, m.seq);
      const event = tapOf(m);
      const screenId = (event?.screen as string | undefined) ?? m.screen?.id;
      if (event && screenId) bubbles.screens.get(screenId)?.answer(event);
      const node = bubbles.draw(m);
      if (node) {
        log.append(node);
        added.push(node);
      }
    }
    follow.arrived(added, mine);
    if (announce) news.say(fresh, agent?.name ?? 'The agent');
  }

  // The oldest page asked for so far: `undefined` before the first, `null` once the thread's start is drawn.
  let olderBefore: number | null | undefined;
  let loadingOlder = false;
  /** Draws the next older page above what is shown, keeping the messages in view where they are. */
  async function loadOlder(): Promise<void> {
    if (loadingOlder || olderBefore === null || olderBefore === undefined || closed) return;
    loadingOlder = true;
    try {
      const page = await call<Page>('GET', `/agents/${agentId}/messages?limit=${PAGE}&before=${olderBefore}`);
      bubbles.noteTaps(page.messages);
      const nodes = page.messages
        .sort((a, b) => a.seq - b.seq)
        .filter((m) => !seen.has(m.id) && seen.add(m.id))
        .flatMap((m) => bubbles.draw(m) ?? []);
      const height = log.scrollHeight;
      log.prepend(...nodes);
      log.scrollTop += log.scrollHeight - height;
      olderBefore = page.next_before;
    } catch (error) {
      composer.status.replaceChildren(problem(error));
    } finally {
      loadingOlder = false;
    }
    // A short page may leave the top in view: keep going until the list can scroll or the start is drawn.
    if (log.scrollTop < OLDER_PX) void loadOlder();
  }
  log.addEventListener('scroll', () => {
    if (log.scrollTop < OLDER_PX) void loadOlder();
  });

  let loaded = false;
  async function loadNewest(): Promise<void> {
    const page = await call<Page>('GET', `/agents/${agentId}/messages?limit=${PAGE}`);
    add(page.messages, false, loaded);
    if (olderBefore === undefined) olderBefore = page.next_before;
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
    composer.form.remove();
  }

  /** Brings a screen into view, ready to answer (a notification's tap names it); its heading takes focus. */
  function showScreen(screenId: string): void {
    const screen = [...log.querySelectorAll<HTMLElement>('[data-screen]')].find(
      (s) => s.dataset.screen === screenId,
    );
    if (!screen) return;
    screen.scrollIntoView({ block: 'center' });
    const heading = screen.querySelector<HTMLElement>('.screen-heading');
    heading?.focus({ preventScroll: true });
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
    if (agent.status !== 'connected') working.set(null);
    chipSlot.replaceChildren(chip(agent, 32));
    // A `/` typed before the agent (and its commands) loaded opens the menu now.
    composer.refreshCommands();
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

  void (async () => {
    try {
      const [config] = await Promise.all([appConfig(), loadAgent()]);
      cdn = promptImages(config);
      if (closed) return;
      await loadNewest();
      if (focusScreen) showScreen(focusScreen);
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
    body: el('div', { class: 'thread-view' }, log, pending.el, working.el, composer.form, news.el),
    skip: {
      label: 'Skip to the newest screen',
      target: () => [...log.querySelectorAll<HTMLElement>('.screen-heading')].at(-1) ?? composer.text,
    },
    leave: () => {
      pending.stop();
      acked();
      follow.stop();
      working.stop();
      for (const s of bubbles.screens.values()) s.destroy();
      releasePresence?.();
      applyLook({});
    },
    onEvent: (type, data) => {
      if (closed) return;
      if ((type === 'message' && data.agent_id === agentId) || type === 'resync') void loadNewest();
      if (type === 'resync') void tables.changed();
      // The service's copy of this agent's tables changed (ADR 0250): copy what changed, redraw its views.
      if (type === 'tables' && (data.agent_id === undefined || data.agent_id === agentId)) {
        void tables.changed(Array.isArray(data.tables) ? (data.tables as string[]) : null);
      }
      if (type === 'agents') void loadAgent().catch(() => {});
      if (type === 'working' && data.agent_id === agentId) working.set(data.working_until);
    },
  };
}
