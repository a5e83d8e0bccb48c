// The consent page's parts: who is asking and where they return to, the phone approval (QR or Open), code entry.
import { el } from '../shared/dom.js';
import { approveHash } from '../shared/oauth-request.js';
import type { ConsentRequest } from './oauth-api.js';
import { qrSvg } from './qr.js';
import { onlyThisComputer } from './reach.js';

/** The client's name, the host it returns to (prominent) and the full redirect URI (small). */
export function clientCard(view: ConsentRequest): HTMLElement {
  const until = new Date(view.expires_at);
  return el(
    'section',
    { class: 'client-card', 'aria-labelledby': 'consent-title' },
    // <bdi>: a name in another script (or one trying to reverse the text) cannot reorder the sentence.
    el('h1', { id: 'consent-title' }, 'Connect ', el('bdi', {}, view.client.name), ' to Screen Service'),
    el('p', {}, el('bdi', {}, view.client.name), ' wants to send you screens and hear your answers.'),
    documentHost(view),
    el(
      'p',
      { class: 'returns' },
      'Afterwards you return to ',
      el('strong', { class: 'return-host' }, view.redirect.host),
    ),
    el('p', { class: 'svc-muted small return-uri' }, view.redirect.uri),
    Number.isNaN(until.getTime())
      ? null
      : el(
          'p',
          { class: 'svc-muted small' },
          `This sign-in works until ${until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`,
        ),
  );
}

/**
 * A client that signs in by its metadata document (no registration): the host that publishes the document,
 * the only thing that vouches for the name above, so the person can tell a look-alike name from the real app.
 */
function documentHost(view: ConsentRequest): HTMLElement | null {
  if (!view.client.host) return null;
  return el(
    'p',
    { class: 'client-document' },
    'Name and details published by ',
    el('strong', { class: 'client-host' }, el('bdi', {}, view.client.host)),
    '.',
  );
}

/** On a phone: the Open button to the app's approval view in this browser (it comes back here to finish). */
export function openHere(view: ConsentRequest): HTMLElement {
  const href = new URL(`./${approveHash(view.id, true)}`, location.href).href;
  return el(
    'section',
    { class: 'approve-here stack', 'aria-labelledby': 'approve-title' },
    el('h2', { id: 'approve-title' }, 'Approve in the app'),
    el('a', { href, class: 'svc-btn svc-primary wide', id: 'open-app' }, 'Open Screen Service'),
    el(
      'p',
      { class: 'svc-muted small' },
      `Pick the agent ${view.client.name} talks as, tap Allow, and you come straight back.`,
    ),
  );
}

/** On a computer: a QR code of the approval link to scan with the phone, the link itself, and a way to stay here. */
export function scanWithPhone(view: ConsentRequest): HTMLElement {
  const here = new URL(`./${approveHash(view.id, true)}`, location.href).href;
  return el(
    'section',
    { class: 'approve-scan', 'aria-labelledby': 'approve-title' },
    el('h2', { id: 'approve-title' }, 'Approve on your phone'),
    el(
      'figure',
      { class: 'qr' },
      qrSvg(view.approve_url, `QR code of the approval link ${view.approve_url}`),
      el('figcaption', {}, "Scan with your phone's camera"),
    ),
    el('p', { class: 'small approve-link' }, el('a', { href: view.approve_url }, view.approve_url)),
    onlyThisComputer(view.approve_url) ? localOnly(view.approve_url) : null,
    el(
      'p',
      { class: 'svc-muted small' },
      'Signed in on this computer? ',
      el('a', { href: here }, 'Approve here instead'),
      '.',
    ),
  );
}

/**
 * The approval link names this computer (the service runs with its default base URL): a phone that scans
 * it reaches nothing. Says so, how the operator fixes it, and what works meanwhile.
 */
function localOnly(approveUrl: string): HTMLElement {
  const { host, port, protocol } = new URL(approveUrl);
  const example = `${protocol}//192.168.1.20${port ? `:${port}` : ''}`;
  return el(
    'div',
    { class: 'local-only', role: 'note' },
    el('p', {}, el('strong', {}, `A phone cannot open this code: it points at ${host}, this computer only.`)),
    el(
      'p',
      { class: 'small' },
      'To approve from your phone, start the service with SVC_BASE_URL set to an address your phone reaches, ',
      'for example ',
      el('code', {}, `SVC_BASE_URL=${example} npm start`),
      " (this computer's address on your Wi-Fi) or its public https address, then sign in again. ",
      'Or approve here, or type a code below.',
    ),
  );
}

/** Code entry: one field that takes `123456` or `123 456`, a Connect button, the server's refusal inline. */
export function codeForm(onCode: (code: string) => Promise<string | undefined>): HTMLFormElement {
  const input = el('input', {
    id: 'code',
    name: 'code',
    class: 'svc-input code-input',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: 9,
    required: true,
    'aria-describedby': 'code-error',
  });
  const errorBox = el('div', { id: 'code-error' });
  const submit = el('button', { type: 'submit', class: 'svc-btn' }, 'Connect');
  const form = el(
    'form',
    { class: 'code-entry stack', novalidate: true },
    el(
      'div',
      { class: 'svc-field' },
      el('label', { for: 'code' }, 'Or add an agent in the app and type its 6-digit code here'),
      el('div', { class: 'row code-row' }, input, submit),
    ),
    errorBox,
  );
  const showError = (message: string | undefined) => {
    errorBox.replaceChildren(message ? el('p', { class: 'problem', role: 'alert' }, message) : '');
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  input.addEventListener('input', () => showError(undefined));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = input.value.replace(/[\s-]/g, '');
    if (!/^\d{6}$/.test(code)) {
      showError('Type the 6 digits the app shows, like 123 456.');
      input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const problem = await onCode(code);
      showError(problem);
      if (problem) input.select();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
