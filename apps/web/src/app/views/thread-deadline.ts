// A screen's deadline on the phone (ADR 0260): the time left under the screen, and after it what was decided
// ("Expired: Soup was chosen by default"), with the screen no longer answerable; and a screen its agent
// withdrew (ADR 0279): "Withdrawn", inert, whether or not it had a deadline.
import { el } from '../../shared/dom.js';

/** What the service stored with the screen (`meta.deadline`). */
interface DeadlineMeta {
  due: string;
  defaults: { id: string; value: unknown }[];
  /** On a screen offered to this person (a holder): the ask's own screen. */
  offer_of?: string;
}

/** How a screen's deadline ended, as far as this phone knows. */
export type DeadlineEnd =
  | { by: 'default'; echo: string }
  | { by: 'person' }
  | { by: 'agent' }
  /** A holder of the shared agent answered the ask offered to them (ADR 0280). */
  | { by: 'holder'; name: string };

/** Makes a screen inert (the service refuses its taps too). */
function makeInert(screen: HTMLElement): void {
  screen.inert = true;
  screen.setAttribute('aria-disabled', 'true');
}

/**
 * A screen the agent withdrew, without a deadline note to say so: inert, with a "Withdrawn" note to put
 * beside it. Null when it was marked before (a page's rows and a live row can both say so).
 */
export function withdrawnNote(screen: HTMLElement): HTMLElement | null {
  if (screen.dataset.withdrawn) return null;
  screen.dataset.withdrawn = 'true';
  makeInert(screen);
  return el('p', { class: 'svc-deadline withdrawn', role: 'status' }, 'Withdrawn');
}

const deadlineOf = (meta: Record<string, unknown>): DeadlineMeta | null => {
  const d = meta.deadline as Partial<DeadlineMeta> | undefined;
  return d && typeof d.due === 'string' && Array.isArray(d.defaults) ? (d as DeadlineMeta) : null;
};

/** `4:05`, `1:02:03`, `2 days`: what is left, to the second while it matters. */
export function timeLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 172_800) return `${Math.floor(s / 86_400)} days`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** What the note says once the deadline passed: the default chosen, or that the screen expired. */
function expiredText(d: DeadlineMeta, end: DeadlineEnd | null): string {
  const chosen =
    end?.by === 'default' && end.echo ? end.echo : d.defaults.map((x) => String(x.value)).join(', ');
  return chosen ? `Expired: ${chosen} was chosen by default` : 'Expired: nobody answered in time';
}

/**
 * The deadline note of one screen, or null when it has none. `screen` is made inert once the deadline passed
 * (the service refuses a late tap too). `end` is what the thread already shows: a person's answer ends the
 * countdown; a default shows at once.
 */
export function deadlineNote(meta: Record<string, unknown>, screen: HTMLElement, end: DeadlineEnd | null) {
  const d = deadlineOf(meta);
  if (!d) return null;
  const due = Date.parse(d.due);
  const note = el('p', { class: 'svc-deadline', role: 'status' });
  let timer: ReturnType<typeof setInterval> | undefined;
  const settle = (e: DeadlineEnd | null) => {
    clearInterval(timer);
    // Who answered an ask offered to holders (ADR 0280): a holder for the owner, or this person themselves
    // on the screen offered to them. The screen keeps showing the answer.
    if (e?.by === 'holder' || (e?.by === 'person' && d.offer_of)) {
      note.textContent = e.by === 'holder' ? `Answered by ${e.name}` : 'Answered by you';
      note.classList.add('answered');
      return;
    }
    if (e?.by === 'person') {
      note.remove();
      return;
    }
    if (e?.by === 'agent') {
      screen.dataset.withdrawn = 'true';
      note.textContent = 'Withdrawn';
      note.classList.add('withdrawn');
    } else {
      note.textContent = expiredText(d, e);
      note.classList.add('expired');
    }
    makeInert(screen);
  };
  let shown = false;
  const tick = () => {
    // A thread closed (the note left the page) stops its countdown; a redraw makes a new note.
    if (shown && !note.isConnected) return clearInterval(timer);
    shown ||= note.isConnected;
    if (Date.now() >= due) settle(null);
    else note.textContent = `Time left: ${timeLeft(due - Date.now())}`;
  };
  if (end) settle(end);
  else {
    tick();
    if (Date.now() < due) timer = setInterval(tick, 1000);
  }
  return { element: note, settle };
}
