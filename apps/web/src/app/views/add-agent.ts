// Add an agent: name it, then show its 6-digit pairing code and when it expires (10 minutes, single use).
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import { problem, spacedCode, type View } from '../shell.js';

interface Created {
  agent: Agent;
  pairing: { code: string; expires_at: string } | null;
}

/** Draws a code with a live countdown; used here and in agent settings. */
export function codeCard(
  agentId: string,
  pairing: { code: string; expires_at: string },
): { el: HTMLElement; stop: () => void } {
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
  const card = el(
    'section',
    { class: 'code-card', 'aria-label': 'Pairing code' },
    el('p', {}, 'Enter this code in your AI app to pair it:'),
    el(
      'output',
      { class: 'code', 'data-code': pairing.code, 'aria-label': pairing.code.split('').join(' ') },
      spacedCode(pairing.code),
    ),
    left,
    el(
      'p',
      { class: 'svc-muted small' },
      'Tool server: ',
      el('code', {}, `${location.origin}/functions/v1/svc-mcp`),
    ),
    el('a', { href: `#/a/${agentId}`, class: 'svc-btn svc-primary' }, 'Open the thread'),
  );
  return { el: card, stop: () => clearInterval(timer) };
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
  let stop = () => {};
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const created = await call<Created>('POST', '/agents', { name: name.value.trim() });
      if (!created.pairing)
        throw new Error('The agent was added but no code came back; make one in its settings.');
      const card = codeCard(created.agent.id, created.pairing);
      stop = card.stop;
      form.replaceWith(card.el);
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  return { title: 'Add an agent', back: '#/', body: el('div', {}, form), leave: () => stop() };
}
