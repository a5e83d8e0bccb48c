// The agent list: colour chip, name, status and unread count; add an agent; links to connections.
import { el } from '../../shared/dom.js';
import { type Agent, call } from '../api.js';
import { goneLines, noteSharedList } from '../gone-shares.js';
import { keepAgentTables } from '../phone-tables.js';
import { ago, chip, go, problem, statusLine, type View } from '../shell.js';
import { signOutHere } from '../sign-out.js';

/** A host agent's reported commands (doc2 Commands entry), shortened to fit one line; none for others. */
function commandsLine(a: Agent): HTMLElement | null {
  if (!a.commands || a.commands.length === 0) return null;
  const names = a.commands.map((c) => `/${c.name}`);
  const shown = names.slice(0, 4).join(' ');
  return el(
    'span',
    { class: 'svc-muted small agent-commands', title: names.join(' ') },
    names.length > 4 ? `${shown} +${names.length - 4} more` : shown,
  );
}

/** The newest row as a messaging app's list shows it: who said it, what, and when. */
function previewLine(a: Agent): HTMLElement | null {
  if (!a.last_message) return null;
  return el(
    'span',
    { class: 'agent-preview' },
    el(
      'span',
      { class: 'preview-text' },
      a.last_message.sender === 'person' ? `You: ${a.last_message.text}` : a.last_message.text,
    ),
    a.last_message_at ? el('span', { class: 'preview-when' }, ago(a.last_message_at)) : null,
  );
}

/** A shared agent's line: who shares it, and whether its owner paused it (doc2 presence). */
function sharedLine(a: Agent): HTMLElement {
  return el(
    'span',
    { class: 'svc-muted small shared-by' },
    `shared by ${a.shared_by ?? 'its owner'}`,
    a.presence === 'paused' ? ' · paused by its owner' : '',
  );
}

export function agentsView(): View {
  const list = el(
    'ul',
    { class: 'agent-list', 'aria-label': 'Agents' },
    el('li', { class: 'empty' }, 'Loading your agents…'),
  );
  const more = [
    el('a', { href: '#/add', class: 'svc-btn svc-primary wide' }, '+ Add an agent'),
    el(
      'nav',
      { class: 'foot-links', 'aria-label': 'More' },
      el('a', { href: '#/connections' }, 'Connections'),
      el('a', { href: '#/access' }, 'Agent access'),
      el('a', { href: '#/shares' }, 'Shared agents'),
      el('a', { href: '#/notifications' }, 'Notifications'),
      el('a', { href: '#/account' }, 'Account'),
      el('a', { href: 'playground.html' }, 'Playground'),
      el('button', { type: 'button', class: 'link', id: 'signout' }, 'Sign out'),
    ),
  ];
  const body = el('div', { class: 'stack' }, list);
  more[1]!.querySelector('#signout')!.addEventListener('click', async () => {
    await signOutHere();
    go('#/signin');
  });
  const load = async () => {
    try {
      const { agents } = await call<{ agents: Agent[] }>('GET', '/agents');
      // Tables of agents removed elsewhere (another phone, the CLI) leave this phone too.
      void keepAgentTables(agents.map((a) => a.id)).catch(() => {});
      noteSharedList(agents);
      list.replaceChildren(
        ...goneLines().map((line) => el('li', { class: 'gone-share', role: 'status' }, line)),
        ...(agents.length === 0
          ? [el('li', { class: 'empty' }, 'No agents yet. Add one, then pair your AI app with its code.')]
          : agents.map((a) =>
              el(
                'li',
                {},
                el(
                  'a',
                  {
                    href: `#/a/${a.id}`,
                    class: `agent-row${a.unread ? ' has-unread' : ''}`,
                    'data-agent': a.id,
                  },
                  chip(a),
                  el(
                    'span',
                    { class: 'agent-main' },
                    el(
                      'span',
                      { class: 'agent-name' },
                      a.name,
                      a.is_default ? el('span', { class: 'tag' }, 'default') : null,
                      a.push_muted ? el('span', { class: 'tag' }, 'muted') : null,
                    ),
                    previewLine(a),
                    a.shared ? sharedLine(a) : statusLine(a),
                    commandsLine(a),
                  ),
                  a.unread
                    ? el('span', { class: 'badge', 'aria-label': `${a.unread} unread` }, String(a.unread))
                    : null,
                ),
              ),
            )),
      );
    } catch (error) {
      list.replaceChildren(el('li', {}, problem(error)));
    }
    // What sits under the list arrives with it, not before: drawn first, it jumped down when the agents came
    // (a layout shift of 0.13; the goal is under 0.1).
    if (!more[0]!.isConnected) body.append(...more);
  };
  void load();
  return {
    title: 'Agents',
    body,
    onEvent: (type) => (type === 'agents' || type === 'message' ? void load() : undefined),
  };
}
