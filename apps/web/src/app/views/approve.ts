// Approving an AI app's sign-in (#/approve/<id>[/here]): who asks, where it returns, which agent it talks as,
// Allow or Deny. With /here the same browser holds the consent page, so it goes back there to finish.
import { el } from '../../shared/dom.js';
import { connectPath, type OAuthRequest } from '../../shared/oauth-request.js';
import { type Agent, ApiError, call } from '../api.js';
import { chip, problem, type View } from '../shell.js';

/** What to say, and what to do next, for a refusal of the person's OAuth routes. */
function nextStep(error: unknown, clientName: string): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const client = clientName || 'the app you were connecting';
  switch (error.code) {
    case 'oauth_request_not_found':
      return `This sign-in was not found for this account. If you started it with another account, sign out and sign in with that one; otherwise start connecting again from ${client}.`;
    case 'oauth_request_decided':
      return `This sign-in was already answered. Go back to ${client}; if it is not connected, start again from there.`;
    case 'oauth_request_expired':
      return `This sign-in expired. Start connecting again from ${client}; it opens a fresh page.`;
    case 'agent_not_found':
      return 'That agent no longer exists. Pick another one, or a new agent.';
    default:
      return error.message;
  }
}

function agentChoice(agent: Agent): HTMLElement {
  const inputId = `pick-${agent.id}`;
  const moves = agent.connector
    ? el('span', { class: 'moves' }, `Now served by ${agent.connector.name}; it moves to this connection.`)
    : null;
  return el(
    'div',
    { class: 'choice' },
    el('input', { type: 'radio', name: 'agent', id: inputId, value: agent.id }),
    el(
      'label',
      { for: inputId },
      chip(agent, 32),
      el('span', { class: 'choice-text' }, el('span', { class: 'agent-name' }, agent.name), moves),
    ),
  );
}

function requestCard(req: OAuthRequest): HTMLElement {
  return el(
    'section',
    { class: 'client-card', 'aria-labelledby': 'approve-client' },
    el(
      'p',
      { class: 'lead', id: 'approve-client' },
      el('strong', {}, el('bdi', {}, req.client.name)),
      ' wants to send you screens',
    ),
    // A metadata-document client (no registration): the host publishing the document vouches for the name.
    req.client.host
      ? el(
          'p',
          { class: 'client-document' },
          'Name published by ',
          el('strong', { class: 'client-host' }, el('bdi', {}, req.client.host)),
        )
      : null,
    el('p', {}, 'Returns to ', el('strong', { class: 'return-host' }, req.redirect.host)),
    el('p', { class: 'svc-muted small return-uri' }, req.redirect.uri),
  );
}

export function approveView(requestId: string, here: boolean): View {
  const body = el('div', { class: 'stack narrow' }, el('p', { class: 'boot' }, 'Loading the sign-in…'));
  let clientName = '';
  const done = (req: OAuthRequest, title: string, ...lines: (HTMLElement | string | null)[]) => {
    const tone = req.status === 'approved' || req.agent ? 'ok lead' : 'lead';
    const heading = el('p', { class: tone, role: 'status', tabindex: -1 }, title);
    body.replaceChildren(
      requestCard(req),
      heading,
      ...lines.map((l) => (typeof l === 'string' ? el('p', {}, l) : l)).filter((l) => l !== null),
    );
    heading.focus();
  };
  const returnHere = (req: OAuthRequest, title: string) => {
    done(req, title);
    location.assign(new URL(connectPath(req.id), location.href).href);
  };
  const settled = (req: OAuthRequest) => {
    const client = req.client.name;
    if (req.status === 'pending') return false;
    if (here && (req.status === 'approved' || req.status === 'denied')) {
      returnHere(req, `${req.status === 'approved' ? 'Approved' : 'Denied'} — returning you to ${client}…`);
      return true;
    }
    if (req.status === 'approved' || (req.status === 'finished' && req.agent))
      done(
        req,
        `Approved. Go back to ${client} on your computer.`,
        req.agent
          ? el(
              'p',
              {},
              `${client} talks to you as `,
              el('a', { href: `#/a/${encodeURIComponent(req.agent.id)}` }, req.agent.name),
              '.',
            )
          : null,
      );
    else if (req.status === 'denied' || req.status === 'finished')
      done(req, 'Denied.', `${client} was not connected.`);
    else
      body.replaceChildren(
        requestCard(req),
        problem(
          new Error(`This sign-in expired. Start connecting again from ${client}; it opens a fresh page.`),
        ),
      );
    return true;
  };

  const draw = (req: OAuthRequest, agents: Agent[]) => {
    const newName = el('input', {
      id: 'new-agent-name',
      class: 'svc-input',
      value: req.client.name,
      maxlength: 40,
      required: true,
    });
    const newPick = el('input', { type: 'radio', name: 'agent', id: 'pick-new', value: '', checked: true });
    const named = el('span', { class: 'new-name' }, req.client.name);
    newName.addEventListener('input', () => {
      named.textContent = newName.value.trim() || req.client.name;
      newPick.checked = true;
    });
    const status = el('div', { 'aria-live': 'polite' });
    const allow = el('button', { type: 'submit', class: 'svc-btn svc-primary', value: 'allow' }, 'Allow');
    const deny = el('button', { type: 'submit', class: 'svc-btn', value: 'deny' }, 'Deny');
    const form = el(
      'form',
      { class: 'stack' },
      el(
        'fieldset',
        { class: 'choices' },
        el('legend', {}, `${req.client.name} talks to you as`),
        el(
          'div',
          { class: 'choice choice-new' },
          el(
            'div',
            { class: 'choice-head' },
            newPick,
            el('label', { for: 'pick-new' }, el('span', {}, 'A new agent named ', named)),
          ),
          el(
            'div',
            { class: 'svc-field' },
            el('label', { for: 'new-agent-name' }, 'Name of the new agent'),
            newName,
          ),
        ),
        ...agents.map(agentChoice),
      ),
      el('div', { class: 'row' }, allow, deny),
      status,
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const allowIt = ((e as SubmitEvent).submitter as HTMLButtonElement | null)?.value !== 'deny';
      const picked =
        (form.querySelector('input[name=agent]:checked') as HTMLInputElement | null)?.value ?? '';
      const name = newName.value.trim();
      if (allowIt && !picked && !name) {
        status.replaceChildren(problem(new Error('Give the new agent a name, or pick an existing agent.')));
        newName.focus();
        return;
      }
      allow.disabled = deny.disabled = true;
      status.replaceChildren();
      try {
        const decided = await call<OAuthRequest>(
          'POST',
          `/oauth/requests/${encodeURIComponent(requestId)}/decision`,
          allowIt
            ? picked
              ? { decision: 'allow', agent_id: picked }
              : { decision: 'allow', agent_name: name }
            : { decision: 'deny' },
        );
        settled(decided);
      } catch (error) {
        allow.disabled = deny.disabled = false;
        status.replaceChildren(problem(new Error(nextStep(error, req.client.name))));
        if (error instanceof ApiError && error.code === 'oauth_request_decided' && here)
          status.append(
            el('a', { href: connectPath(requestId), class: 'svc-btn' }, 'Back to the sign-in page'),
          );
      }
    });
    body.replaceChildren(requestCard(req), form);
  };

  void (async () => {
    try {
      const [req, { agents }] = await Promise.all([
        call<OAuthRequest>('GET', `/oauth/requests/${encodeURIComponent(requestId)}`),
        call<{ agents: Agent[] }>('GET', '/agents'),
      ]);
      clientName = req.client.name;
      if (!settled(req)) draw(req, agents);
    } catch (error) {
      body.replaceChildren(problem(new Error(nextStep(error, clientName))));
    }
  })();
  return { title: 'Connect an app', back: '#/', body };
}
