// Add an agent: name it, then show its 6-digit pairing code and when it expires (10 minutes, single use).
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import { focusOn, problem, spacedCode, type View } from '../shell.js';
import { nativeAddSection } from './native-add.js';

interface Created {
  agent: Agent;
  pairing: { code: string; expires_at: string } | null;
}

/** A code on screen: its card, the countdown's stop, and the stream events that may mean it was used. */
export interface CodeCard {
  el: HTMLElement;
  stop: () => void;
  /** Pass the view's stream events: an `agents` event makes the card look whether the code was used. */
  onEvent: (type: string) => void;
}

/**
 * Draws a code with a live countdown; used here and in agent settings. `before` is the agent's connection
 * when the code was made: once the agent is bound to another one (or was waiting and now is not), the
 * code was used, and the card says so instead of counting down (issue 38).
 */
export function codeCard(
  agentId: string,
  pairing: { code: string; expires_at: string },
  before: Pick<Agent, 'status' | 'connector'> = { status: 'pending', connector: null },
): CodeCard {
  const left = el('p', { class: 'svc-muted', 'aria-live': 'off' });
  const expires = Date.parse(pairing.expires_at);
  const tick = () => {
    const s = Math.max(0, Math.round((expires - Date.now()) / 1000));
    left.textContent =
      s > 0
        ? `Works once, for ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} more (until ${new Date(expires).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}).`
        : 'This code expired. Make a new one in the agent settings.';
  };
  tick();
  const timer = setInterval(tick, 1000);
  const intro = el('p', {}, 'Give this code to your AI app to pair it:');
  const code = el(
    'output',
    { class: 'code', 'data-code': pairing.code, 'aria-label': pairing.code.split('').join(' ') },
    spacedCode(pairing.code),
  );
  const help = pairingHelp(pairing.code);
  const card = el(
    'section',
    { class: 'code-card', 'aria-label': 'Pairing code' },
    intro,
    code,
    left,
    help,
    el('a', { href: `#/a/${agentId}`, class: 'svc-btn svc-primary' }, 'Open the thread'),
  );
  let paired = false;
  const used = (agent: Agent) => {
    const c = agent.connector;
    if (!c || c.removed_at || agent.status === 'pending') return false;
    return before.status === 'pending' || c.id !== before.connector?.id;
  };
  const check = async () => {
    if (paired) return;
    const agent = await call<Agent>('GET', `/agents/${agentId}`).catch(() => null);
    if (paired || !agent || !used(agent)) return;
    paired = true;
    clearInterval(timer);
    card.classList.add('paired');
    card.setAttribute('aria-label', 'Paired');
    // The code worked once and is gone: no countdown, no code to copy, the connection it made instead.
    intro.replaceWith(
      el('p', { class: 'ok', role: 'status' }, `Paired with ${agent.connector!.name}. The code is used up.`),
    );
    code.remove();
    left.remove();
    help.remove();
  };
  return { el: card, stop: () => clearInterval(timer), onEvent: (type) => type === 'agents' && void check() };
}

/**
 * Where the code goes: the host API address with a copyable pairing call, and the tool server the app
 * then talks to with the token the call returns (doc1 "Pairing with a code").
 */
function pairingHelp(code: string): HTMLElement {
  const base = location.origin;
  const body = JSON.stringify({
    action: 'pair',
    code,
    remote_ref: 'my-app',
    kind: 'mcp',
    host_name: 'my laptop',
  });
  const example = `curl -X POST ${base}/functions/v1/svc-connect \\\n  -H 'content-type: application/json' \\\n  -d '${body}'`;
  const pre = el('pre', { class: 'pair-example', tabindex: 0 }, el('code', {}, example));
  const copied = el('span', { class: 'svc-muted small', 'aria-live': 'polite' });
  const copy = el('button', { type: 'button', class: 'svc-btn' }, 'Copy');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(example);
      copied.textContent = 'Copied.';
    } catch {
      // No clipboard access (an insecure origin): select the text so a long-press or Ctrl+C copies it.
      getSelection()?.selectAllChildren(pre);
      copied.textContent = 'Selected: copy it from the box.';
    }
  });
  return el(
    'div',
    { class: 'pair-help' },
    el(
      'p',
      { class: 'small' },
      'Host API (the app sends the code here): ',
      el('code', {}, `${base}/functions/v1/svc-connect`),
    ),
    el('p', { class: 'small' }, 'The pairing call, from the computer the app runs on:'),
    pre,
    el('div', { class: 'pair-copy' }, copy, copied),
    el(
      'p',
      { class: 'svc-muted small' },
      'It answers connector_token (svc_ct_…, shown once). The app then calls the tool server ',
      el('code', {}, `${base}/functions/v1/svc-mcp`),
      ' with Authorization: Bearer and that token.',
    ),
  );
}

export function addAgentView(): View {
  const name = el('input', {
    id: 'agent-name',
    class: 'svc-input',
    required: true,
    maxlength: 40,
    placeholder: 'Claude, Cursor, my workflow…',
  });
  const status = el('div', { 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'stack narrow' },
    el(
      'div',
      { class: 'svc-field' },
      el('label', { for: 'agent-name' }, 'Name it after the app that will talk to you'),
      name,
    ),
    el('button', { type: 'submit', class: 'svc-btn svc-primary' }, 'Get a pairing code'),
    status,
  );
  let card: CodeCard | undefined;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const created = await call<Created>('POST', '/agents', { name: name.value.trim() });
      if (!created.pairing)
        throw new Error('The agent was added but no code came back; make one in its settings.');
      card = codeCard(created.agent.id, created.pairing, created.agent);
      form.replaceWith(card.el);
      // The form the focus was in is gone: the code it made is the next thing.
      focusOn(card.el.querySelector<HTMLElement>('output.code'));
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  return {
    title: 'Add an agent',
    back: '#/',
    body: el('div', { class: 'stack' }, nativeAddSection(), form),
    leave: () => card?.stop(),
    onEvent: (type) => card?.onEvent(type),
  };
}
