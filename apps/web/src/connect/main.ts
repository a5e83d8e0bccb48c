// The consent page ({base}/connect?request=<id>): names the client and where it returns to, offers approval in
// the person's app (QR on a computer, Open on a phone), code entry and Cancel, and finishes once decided.
import { el } from '../shared/dom.js';
import { applyLook, applyScheme, savedScheme, useScreenCss } from '../shared/look.js';
import {
  ApiError,
  type ConsentRequest,
  cancelRequest,
  enterCode,
  finishUrl,
  readRequest,
} from './oauth-api.js';
import { clientCard, codeForm, openHere, scanWithPhone } from './sections.js';
import { watchRequest } from './watch.js';

useScreenCss();
applyLook({});
applyScheme(savedScheme());

const root = document.getElementById('app')!;
const id = new URLSearchParams(location.search).get('request') ?? '';
/** A phone (or any touch-first or narrow screen) approves in this browser; a computer shows the QR code. */
const phone = matchMedia('(pointer: coarse), (max-width: 640px)');
const live = el('div', { class: 'consent-status', 'aria-live': 'polite' });
let finishing = false;
let cancelled = false;
let stopWatch = () => {};

function frame(...children: HTMLElement[]): void {
  root.replaceChildren(
    el(
      'header',
      { class: 'bar' },
      el('span', { class: 'bar-mark', 'aria-hidden': 'true' }),
      el('p', { class: 'bar-title' }, 'Screen Service'),
    ),
    el('main', { class: 'page consent stack', id: 'main' }, ...children, live),
  );
}

/** A whole-page message for a state the page cannot go on from, with the next step. */
function ending(title: string, ...lines: (string | HTMLElement)[]): void {
  stopWatch();
  const heading = el('h1', { tabindex: -1, id: 'consent-title' }, title);
  frame(
    el(
      'section',
      { class: 'client-card', 'aria-labelledby': 'consent-title' },
      heading,
      ...lines.map((l) => (typeof l === 'string' ? el('p', {}, l) : l)),
    ),
  );
  heading.focus();
}

function refused(error: ApiError): void {
  const said = el('p', { class: 'svc-muted small' }, error.message);
  if (error.status === 403)
    ending(
      'This sign-in is not open in this browser',
      'This page works only in the browser window your AI app opened, and only until it sends you back to the app. If the app is not connected, start the sign-in again from it.',
      said,
    );
  else if (error.status === 404)
    ending(
      'This sign-in was not found',
      'The link may be incomplete or old. Start connecting again from your AI app; it opens a fresh page.',
      said,
    );
  else ending('This sign-in cannot go on', error.message);
}

/** Decided: the server answers the finish URL with a redirect to the client (code or access_denied). */
function finish(view: ConsentRequest): void {
  if (finishing) return;
  finishing = true;
  stopWatch();
  const verb = view.status === 'approved' ? 'Approved' : cancelled ? 'Cancelled' : 'Denied';
  ending(`${verb} — returning you to ${view.client.name}…`);
  location.assign(finishUrl(view.id));
}

/** Draws the page for a state; a `pending` view redraws only the first time (inputs keep what was typed). */
function show(view: ConsentRequest): void {
  if (view.status === 'approved' || view.status === 'denied') {
    finish(view);
    return;
  }
  if (view.status === 'expired') {
    // The finish URL tells the client it was not approved (access_denied), so it can offer to start over.
    ending(
      'This sign-in expired',
      `Start again from ${view.client.name}; it opens a fresh page.`,
      el('a', { href: finishUrl(view.id), class: 'svc-btn' }, `Back to ${view.client.name}`),
    );
    return;
  }
  if (view.status === 'finished') {
    ending(
      'This sign-in is finished',
      view.agent
        ? `Go back to ${view.client.name}; it talks to you as ${view.agent.name}.`
        : `Go back to ${view.client.name}; it was not connected.`,
    );
    return;
  }
  if (document.getElementById('code')) return;

  const approve = el('div', {}, phone.matches ? openHere(view) : scanWithPhone(view));
  phone.addEventListener('change', () =>
    approve.replaceChildren(phone.matches ? openHere(view) : scanWithPhone(view)),
  );
  const code = codeForm(async (value) => {
    try {
      show(await enterCode(view.id, value));
      return undefined;
    } catch (error) {
      return decisionProblem(error);
    }
  });
  const cancelProblem = el('div', {});
  const cancel = el('button', { type: 'button', class: 'svc-btn', id: 'cancel' }, 'Cancel');
  cancel.addEventListener('click', async () => {
    cancel.disabled = true;
    cancelled = true;
    try {
      show(await cancelRequest(view.id));
    } catch (error) {
      cancelProblem.replaceChildren(el('p', { class: 'problem', role: 'alert' }, decisionProblem(error)));
      cancel.disabled = false;
      cancelled = false;
    }
  });
  frame(
    clientCard(view),
    approve,
    code,
    el(
      'div',
      { class: 'stack cancel-row' },
      el(
        'p',
        { class: 'svc-muted small' },
        `Cancel sends you back to ${view.client.name} without connecting.`,
      ),
      cancel,
      cancelProblem,
    ),
  );
}

/** The server's sentence for a refused code or cancel; a request decided meanwhile is re-read and shown. */
function decisionProblem(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) void readRequest(id).then(show, () => {});
  return error instanceof Error ? error.message : String(error);
}

async function start(): Promise<void> {
  if (!/^ar_[A-Za-z0-9_-]+$/.test(id))
    return ending(
      'No sign-in to show',
      'This page is opened by an AI app that connects to Screen Service. Start connecting from that app; it sends you here with the sign-in.',
    );
  frame(el('p', { class: 'boot' }, 'Loading the sign-in…'));
  try {
    const view = await readRequest(id);
    show(view);
    if (view.status !== 'pending') return;
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return refused(error);
    live.replaceChildren(el('p', { class: 'problem' }, `${(error as Error).message} Retrying…`));
  }
  stopWatch = watchRequest({
    id,
    // show() keeps a drawn pending page as it is (what was typed stays).
    onView: show,
    onRefused: refused,
    onTrouble: (delay) =>
      live.replaceChildren(
        delay > 0
          ? el(
              'p',
              { class: 'svc-muted small' },
              `Lost touch with Screen Service; trying again in ${Math.round(delay / 1000)} s.`,
            )
          : '',
      ),
  });
}

void start();
