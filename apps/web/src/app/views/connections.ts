// Connections: paired computers and tool connections, each with Remove (the kill switch: tokens stop at once).
import { el } from '../../shared/dom.js';
import { type Connection, call } from '../api.js';
import { ago, focusOn, problem, type View } from '../shell.js';

const KIND_WORDS: Record<string, string> = {
  mcp: 'AI app (MCP)',
  hostfw: 'Agent host',
  http: 'Agent bridge',
  hosted: 'Runs on this service',
};

/** "Nov 23, 14:02": when a connection was paired, to tell two of the same name apart. */
function pairedWhen(iso: string): string {
  return new Date(iso).toLocaleString([], {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/**
 * The names as the list shows them: two connections both named "vm" (two machines with the same host
 * name) read "vm (1)" and "vm (2)", oldest first, beside what else differs (issue 38).
 */
export function shownNames(
  connections: readonly Pick<Connection, 'id' | 'name' | 'created_at'>[],
): Map<string, string> {
  const byName = new Map<string, Pick<Connection, 'id' | 'created_at'>[]>();
  for (const c of connections) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const out = new Map<string, string>();
  for (const [name, same] of byName) {
    const ordered = [...same].sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
    );
    for (const [i, c] of ordered.entries()) out.set(c.id, same.length > 1 ? `${name} (${i + 1})` : name);
  }
  return out;
}

export function connectionsView(): View {
  const list = el('ul', { class: 'conn-list', 'aria-label': 'Connections' });
  const load = async () => {
    try {
      const { connections } = await call<{ connections: Connection[] }>('GET', '/connections');
      const live = connections.filter((c) => !c.revoked_at);
      const names = shownNames(live);
      list.replaceChildren(
        ...(live.length === 0
          ? [
              el(
                'li',
                { class: 'empty' },
                'Nothing is connected. Pair an AI app from an agent to see it here.',
              ),
            ]
          : live.map((c) => {
              const name = names.get(c.id) ?? c.name;
              const remove = el('button', { type: 'button', class: 'svc-btn danger' }, 'Remove');
              remove.setAttribute('aria-label', `Remove ${name}`);
              remove.addEventListener('click', async () => {
                if (!confirm(`Remove ${name}? Its tokens stop working at once.`)) return;
                try {
                  await call('DELETE', `/connections/${c.id}`);
                  await load();
                  // The row (and its button) is gone: the focus goes to the list it was in.
                  focusOn(list);
                } catch (error) {
                  list.prepend(el('li', {}, problem(error)));
                }
              });
              return el(
                'li',
                { class: 'conn', 'data-connection': c.id },
                el(
                  'div',
                  {},
                  el(
                    'p',
                    { class: 'agent-name' },
                    name,
                    el('span', { class: 'tag' }, c.via === 'oauth' ? 'signed in' : 'paired'),
                  ),
                  el(
                    'p',
                    { class: 'svc-muted small conn-what' },
                    `${KIND_WORDS[c.kind] ?? c.kind} · ${c.via === 'oauth' ? 'signed in' : 'paired'} ${pairedWhen(c.created_at)}`,
                  ),
                  el(
                    'p',
                    { class: 'svc-muted small conn-profiles' },
                    // A host's profiles by their remote_ref (doc2), with the agent each one is.
                    `${c.kind === 'mcp' ? 'Talks as' : 'Profiles:'} ${c.agents.map((a) => (a.remote_ref && a.remote_ref !== a.name ? `${a.remote_ref} (${a.name})` : a.name)).join(', ') || 'no agent'}`,
                  ),
                  el(
                    'p',
                    { class: 'svc-muted small conn-seen' },
                    c.last_seen_at ? `Last seen ${ago(c.last_seen_at)}` : 'Not seen yet',
                  ),
                ),
                remove,
              );
            })),
      );
    } catch (error) {
      list.replaceChildren(el('li', {}, problem(error)));
    }
  };
  void load();
  return {
    title: 'Connections',
    back: '#/',
    body: el('div', { class: 'stack' }, list),
    onEvent: (t) => (t === 'agents' ? void load() : undefined),
  };
}
