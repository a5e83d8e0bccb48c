// Sign in or create an account with email and password.
import { el } from '../../shared/dom.js';
import { call, type Session, saveSession } from '../api.js';
import { go, problem, type View } from '../shell.js';

/** `pending` is the hash the person was going to; after signing in or up they land there. */
export function signInView(pending = '#/'): View {
  const next = pending === '#/signin' || pending === '' ? '#/' : pending;
  const approving = next.startsWith('#/approve/');
  const email = el('input', {
    id: 'email',
    type: 'email',
    autocomplete: 'email',
    required: true,
    class: 'svc-input',
  });
  const password = el('input', {
    id: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    minlength: 8,
    class: 'svc-input',
  });
  const status = el('div', { 'aria-live': 'polite' });
  const signIn = el('button', { type: 'submit', class: 'svc-btn svc-primary', value: 'signin' }, 'Sign in');
  const signUp = el('button', { type: 'submit', class: 'svc-btn', value: 'signup' }, 'Create account');
  const form = el(
    'form',
    { class: 'stack narrow' },
    el(
      'p',
      { class: 'lead' },
      approving
        ? 'Sign in (or create an account) to connect the AI app that sent you here.'
        : 'Screens from your AI apps, on your phone. Tap an answer and it goes straight back.',
    ),
    el('div', { class: 'svc-field' }, el('label', { for: 'email' }, 'Email'), email),
    el(
      'div',
      { class: 'svc-field' },
      el('label', { for: 'password' }, 'Password (a new one: 10 characters or more)'),
      password,
    ),
    status,
    el('div', { class: 'row' }, signIn, signUp),
    el(
      'p',
      { class: 'svc-muted' },
      'No account needed to try the ',
      el('a', { href: 'playground.html' }, 'Screen Lines playground'),
      '.',
    ),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const mode =
      ((e as SubmitEvent).submitter as HTMLButtonElement | null)?.value === 'signup' ? 'signup' : 'signin';
    status.replaceChildren();
    try {
      // This device's token for the account (ADR 0249): strangers' wrong passwords do not hold it back.
      const deviceKey = `svc-device-token:${email.value.trim().toLowerCase()}`;
      const known = localStorage.getItem(deviceKey);
      const s = await call<Session>('POST', `/auth/${mode}`, {
        email: email.value.trim(),
        password: password.value,
        ...(known && mode === 'signin' ? { device_token: known } : {}),
      });
      if (s.device_token) localStorage.setItem(deviceKey, s.device_token);
      saveSession(s);
      go(next);
    } catch (error) {
      status.replaceChildren(problem(error));
    }
  });
  return { title: 'Screen Service', body: form };
}
