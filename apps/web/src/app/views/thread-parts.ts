// The parts of a thread view around its messages: the heading, the working row and the composer.
import { el } from '../../shared/dom.js';
import type { Agent, Message } from '../api.js';
import { answer } from '../outbox.js';
import { problem } from '../shell.js';
import { commandMenu } from './commands.js';

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

/** The agent's chip, name and status head the page once, in the top bar (not again above the messages). */
export function threadHeading() {
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
  return { title, chipSlot, statusSlot, header };
}

/** doc3: while a host works on a turn the person sees a working row; the answer (or its lapse) clears it. */
export function workingRow(agentName: () => string) {
  const working = el(
    'p',
    { class: 'working', role: 'status' },
    el('span', { class: 'dots', 'aria-hidden': 'true' }),
    ' working…',
  );
  working.hidden = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  function set(until: unknown): void {
    clearTimeout(timer);
    const left = typeof until === 'string' ? Math.min(Date.parse(until) - Date.now(), 120_000) : 0;
    // A server clock ahead of this device still shows the row for its full two minutes at most.
    const ms = Number.isNaN(left) ? 0 : typeof until === 'string' && left <= 0 ? 120_000 : left;
    working.hidden = ms <= 0;
    working.firstElementChild?.nextSibling?.replaceWith(` ${agentName()} is working…`);
    if (ms > 0) timer = setTimeout(() => set(null), ms);
  }
  return { el: working, set, stop: () => clearTimeout(timer) };
}

/** What the composer needs from its thread. */
export interface ComposerDeps {
  agentId: string;
  agent(): Agent | undefined;
  /** Draws the message the person just sent. */
  sent(m: Message): void;
}

/** The message box with its photo button, `/` command menu and "New ↓" pill; sends typed text and photos. */
export function threadComposer(deps: ComposerDeps) {
  const { agentId } = deps;
  const status = el('div', { 'aria-live': 'polite' });
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
  const menu = commandMenu(text, () => deps.agent()?.commands ?? null);
  let picked: File[] = [];
  const pill = el('button', { type: 'button', class: 'new-pill', hidden: true }, 'New ↓');
  const form = el(
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
  const showPicked = () =>
    attached.replaceChildren(...picked.map((f) => el('span', { class: 'tag' }, f.name)));

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = text.value.trim();
    if (!body && picked.length === 0) return;
    send.disabled = true;
    status.replaceChildren();
    // What this send carries: a photo picked or text typed while it is on its way stays for the next one.
    const sending = picked;
    try {
      // Sent now, or kept on this phone ("Not sent yet") when the network does not answer (ADR 0276).
      const said = body || '(photo)';
      const m = await answer<Message>({
        agentId,
        kind: 'say',
        body: { text: said },
        label: said,
        photos: sending,
      });
      if (text.value.trim() === body) text.value = '';
      picked = picked.filter((f) => !sending.includes(f));
      showPicked();
      if (m) deps.sent(m);
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
      form.requestSubmit();
    }
  });
  file.addEventListener('change', () => {
    picked = [...(file.files ?? [])].slice(0, 8);
    showPicked();
  });
  return { form, text, pill, status, refreshCommands: menu.refresh };
}
