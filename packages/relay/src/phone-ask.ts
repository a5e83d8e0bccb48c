// An elicitation asked on the person's phone through the agent SDK: a screen per field, a review, or a link.
import type { Svc } from '@screen-service/agent';
import { buildComponent } from '@screen-service/screen-lines';
import { contentProblems, type Field, type FieldValue, fieldProblem } from './requested-schema.js';

/** What goes back to the wrapped server (MCP `ElicitResult`). */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, FieldValue>;
}

/** Who asks and how the wait ends. */
export interface PhoneAskContext {
  svc: Svc;
  /** The wrapped server's name, shown with every ask. */
  server: string;
  signal?: AbortSignal;
}

// The Screen Lines limits of a question and an option (the catalog's QUESTION and OPTION).
const QUESTION = 300;
const OPTION = 80;
const TEXT = 1500;
const MAX_OPTIONS = 12;
const SKIP = 'Skip';
const SKIP_MARK = '-';
const NONE = 'None';

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

function questionOf(f: Field): string {
  const typedOptional = !f.required && (f.kind === 'string' || f.kind === 'number');
  const hint = f.default !== undefined ? ' (optional: - for the default)' : ' (optional: - skips)';
  const parts = [`${f.title}${f.required ? '' : typedOptional ? hint : ' (optional)'}`];
  if (f.description && f.description !== f.title) parts.push(f.description);
  if (f.default !== undefined) parts.push(`Default: ${show(f, f.default)}`);
  return clip(parts.join(' · '), QUESTION);
}

function show(f: Field, v: FieldValue): string {
  if (f.kind === 'enum') return f.choices.find((c) => c.value === v)?.title ?? String(v);
  if (f.kind === 'multi' && Array.isArray(v))
    return v.map((x) => f.choices.find((c) => c.value === x)?.title ?? x).join(', ') || '(none)';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
}

// A choose screen needs 2 to 12 distinct options of at most 80 characters; otherwise the field is typed.
function choosable(f: Field & { kind: 'enum' | 'multi' }, extra: number): boolean {
  const titles = f.choices.map((c) => c.title);
  const n = titles.length + extra;
  return (
    n >= 2 &&
    n <= MAX_OPTIONS &&
    new Set(titles).size === titles.length &&
    titles.every((t) => t.length > 0 && t.length <= OPTION && t !== SKIP)
  );
}

const opts = (c: PhoneAskContext, text?: string) => ({
  ...(c.signal ? { signal: c.signal } : {}),
  ...(text ? { text: clip(text, TEXT) } : {}),
  // Read only against a service without svc_withdraw; otherwise an abort withdraws the screen itself.
  withdrawText: `Never mind: ${c.server} no longer needs this answer.`,
});

/** One screen for one field; undefined when the person left an optional field empty. */
async function askOnce(c: PhoneAskContext, f: Field, text?: string): Promise<FieldValue | undefined> {
  const q = questionOf(f);
  switch (f.kind) {
    case 'boolean':
      return await c.svc.confirm(q, opts(c, text));
    case 'enum': {
      if (!choosable(f, f.required ? 0 : 1)) break;
      const picked = await c.svc.choose(
        q,
        [...f.choices.map((ch) => ch.title), ...(f.required ? [] : [SKIP])],
        opts(c, text),
      );
      return picked === SKIP ? undefined : f.choices.find((ch) => ch.title === picked)?.value;
    }
    case 'multi': {
      // The phone's multi-choice needs one pick at least: an optional field offers None.
      if (!choosable(f, f.required ? 0 : 1) || f.choices.some((ch) => ch.title === NONE)) break;
      const picked = await c.svc.choose(
        q,
        [...f.choices.map((ch) => ch.title), ...(f.required ? [] : [NONE])],
        { ...opts(c, text), multi: true },
      );
      const values = picked
        .filter((t) => t !== NONE)
        .map((t) => f.choices.find((ch) => ch.title === t)?.value ?? t);
      return values.length === 0 && !f.required ? undefined : values;
    }
    case 'number':
    case 'string':
      break;
  }
  return await typed(c, f, q, text);
}

// Typed answers: required numbers and formatted strings use the phone's typed box; optional ones a plain box,
// so the person can leave them empty. Empty means the default, or nothing.
async function typed(
  c: PhoneAskContext,
  f: Field,
  q: string,
  text?: string,
): Promise<FieldValue | undefined> {
  // The phone's box cannot be sent empty: a lone '-' leaves an optional field empty (or takes its default).
  const placeholder = f.required
    ? undefined
    : clip(f.default !== undefined ? `- for ${show(f, f.default as FieldValue)}` : '- to skip', OPTION);
  let type: 'text' | 'number' | 'email' | 'date' = 'text';
  if (f.required && f.kind === 'number') type = 'number';
  if (f.required && f.kind === 'string' && (f.format === 'email' || f.format === 'date')) type = f.format;
  const answer = await c.svc.ask(q, { ...opts(c, text), type, ...(placeholder ? { placeholder } : {}) });
  if (typeof answer === 'number') return answer;
  const s = String(answer).trim();
  if (s === '' || (s === SKIP_MARK && !f.required)) return f.default as FieldValue | undefined;
  if (f.kind === 'number') return s !== '' && Number.isFinite(Number(s)) ? Number(s) : s;
  if (f.kind === 'multi') return s.split(',').map((x) => x.trim());
  return s;
}

async function askField(c: PhoneAskContext, f: Field, text?: string): Promise<FieldValue | undefined> {
  let lead = text;
  for (;;) {
    const v = await askOnce(c, f, lead);
    const problem = v === undefined ? (f.required ? 'is required' : undefined) : fieldProblem(f, v);
    if (!problem) return v;
    // Refused on the phone with the reason; the same question comes again.
    lead = `Not sent: ${f.title} ${problem}. Please answer again.`;
  }
}

/**
 * Asks a form-mode elicitation on the phone: answer, decline or cancel; then each field on its own screen
 * (string → ask, enum → choose, boolean → confirm, number → ask with its bounds); a value that breaks the
 * schema is refused with the reason and asked again; then a review (send, change, decline, cancel).
 */
export async function askFormOnPhone(
  c: PhoneAskContext,
  message: string,
  fields: readonly Field[],
): Promise<ElicitAnswer> {
  const start = await c.svc.choose(
    clip(
      `${c.server} asks you for ${fields.length === 1 ? 'one answer' : `${fields.length} answers`}. Answer it?`,
      QUESTION,
    ),
    ['Answer', 'Decline', 'Cancel'],
    opts(c, `${c.server} asks: ${message}`),
  );
  if (start === 'Decline') return { action: 'decline' };
  if (start === 'Cancel') return { action: 'cancel' };
  for (;;) {
    const content: Record<string, FieldValue> = {};
    for (const f of fields) {
      const v = await askField(c, f);
      if (v !== undefined) content[f.key] = v;
    }
    const problems = contentProblems(fields, content);
    const summary = fields
      .map(
        (f) =>
          `${f.title}: ${content[f.key] === undefined ? '(empty)' : show(f, content[f.key] as FieldValue)}`,
      )
      .join('\n');
    const decision = await c.svc.choose(
      problems.length
        ? `Some answers do not fit: ${clip(problems.join('; '), 200)}`
        : `Send this to ${c.server}?`,
      problems.length ? ['Change', 'Decline', 'Cancel'] : ['Send', 'Change', 'Decline', 'Cancel'],
      opts(c, summary),
    );
    if (decision === 'Send') return { action: 'accept', content };
    if (decision === 'Decline') return { action: 'decline' };
    if (decision === 'Cancel') return { action: 'cancel' };
  }
}

/**
 * Asks a URL-mode elicitation: the link (with its host, so the person sees where it goes) and the server's
 * message, then Done (accept: the person went there), Decline or Cancel.
 */
export async function askUrlOnPhone(c: PhoneAskContext, message: string, url: string): Promise<ElicitAnswer> {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return { action: 'decline' };
  }
  const text = `${c.server} asks you to open a page on ${host}: ${message}`;
  if (url.startsWith('https://') && url.length <= 2000)
    await c.svc.show([buildComponent('link', { url, label: clip(`Open ${host}`, OPTION) }, 'link')], {
      text: clip(text, TEXT),
    });
  else await c.svc.say(clip(`${text}\n${url}`, TEXT));
  const done = await c.svc.choose(
    clip(`Opened ${host} and finished there?`, QUESTION),
    ['Done', 'Decline', 'Cancel'],
    opts(c),
  );
  if (done === 'Done') return { action: 'accept' };
  return { action: done === 'Decline' ? 'decline' : 'cancel' };
}

/** Tells the person a form asked for a secret and was declined (sensitive information goes through URL mode only). */
export async function tellSensitiveRefused(
  c: PhoneAskContext,
  message: string,
  keys: readonly string[],
): Promise<void> {
  await c.svc.say(
    clip(
      `${c.server} asked for ${keys.join(', ')} through a form ("${message}"). Passwords, tokens and keys are never sent through forms, so the relay declined; ${c.server} must ask for them through a link (URL mode).`,
      TEXT,
    ),
  );
}
