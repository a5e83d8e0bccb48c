// Who answers an elicitation: the phone, the client first, or both at once (the first answer wins).
import type { Svc } from '@screen-service/agent';
import type { Journal } from './journal.js';
import { pacedSvc } from './paced-svc.js';
import {
  askFormOnPhone,
  askUrlOnPhone,
  type ElicitAnswer,
  type PhoneAskContext,
  tellSensitiveRefused,
} from './phone-ask.js';
import { contentProblems, type Field, readRequestedSchema, sensitiveFields } from './requested-schema.js';
import type { ScreenWatch } from './screen-watch.js';

/** `phone`: only the phone; `client-first`: the client, then the phone; `both`: both at once. */
export type AnswerMode = 'phone' | 'client-first' | 'both';

/** The client's own elicitation, as the relay reaches it (2025 revisions: a request to the client). */
export interface ClientAsker {
  /** Whether the client declared elicitation in this mode. */
  supports(mode: 'form' | 'url'): boolean;
  /** Sends the ask to the client; aborting cancels the client's request (`notifications/cancelled`). */
  ask(params: Record<string, unknown>, signal: AbortSignal): Promise<ElicitAnswer>;
}

export interface PolicyOptions {
  svc: Svc;
  server: () => string;
  mode: AnswerMode;
  /** How long the client has in `client-first` mode before the phone is asked. */
  clientWaitMs: number;
  journal: Journal;
  /** The SDK's transport, watched: each ask's current screen goes to the journal (undefined: not recorded). */
  screens?: ScreenWatch | undefined;
  log: (line: string) => void;
}

let asks = 0;

/** The parts of an `elicitation/create` the relay reads. */
interface Ask {
  mode: 'form' | 'url';
  message: string;
  fields?: Field[];
  url?: string;
}

function readAsk(params: Record<string, unknown>): Ask | { refuse: string } {
  const message = typeof params.message === 'string' ? params.message : '';
  if (params.mode === 'url') {
    if (typeof params.url !== 'string') return { refuse: 'a URL-mode ask without a url' };
    return { mode: 'url', message, url: params.url };
  }
  try {
    return { mode: 'form', message, fields: readRequestedSchema(params.requestedSchema) };
  } catch (err) {
    return { refuse: (err as Error).message };
  }
}

/**
 * Answers one elicitation once. Sensitive form asks are declined (and the person told why); a schema the
 * relay cannot ask is declined; a phone that cannot be reached answers cancel.
 */
export async function answerElicitation(
  o: PolicyOptions,
  params: Record<string, unknown>,
  signal: AbortSignal,
  client: ClientAsker | undefined,
): Promise<ElicitAnswer> {
  const server = o.server();
  const phone: PhoneAskContext = { svc: pacedSvc(o.svc), server, signal };
  const ask = readAsk(params);
  if ('refuse' in ask) {
    o.log(`declined an ask from ${server}: ${ask.refuse}`);
    return { action: 'decline' };
  }
  if (ask.mode === 'form') {
    const secret = sensitiveFields(params.requestedSchema);
    if (secret.length) {
      o.log(
        `declined a form from ${server} asking for ${secret.join(', ')}: secrets go through URL mode only`,
      );
      await tellSensitiveRefused(phone, ask.message, secret).catch((err) =>
        o.log(`could not tell the person: ${err}`),
      );
      return { action: 'decline' };
    }
  }
  const valid = (a: ElicitAnswer) =>
    a.action !== 'accept' ||
    ask.mode === 'url' ||
    contentProblems(ask.fields ?? [], a.content ?? {}).length === 0;
  const useClient = o.mode !== 'phone' && client?.supports(ask.mode) === true;
  if (useClient && o.mode === 'client-first') {
    const first = await fromClient(client, params, signal, o.clientWaitMs, o.log);
    if (first && first.action === 'accept' && valid(first)) return first;
    if (signal.aborted) return { action: 'cancel' };
    o.log(`${server}: the client did not answer (${first?.action ?? 'no answer in time'}); asking the phone`);
  }
  if (useClient && o.mode === 'both') return await race(o, phone, ask, params, signal, client, valid);
  return await onPhone(o, phone, ask);
}

async function fromClient(
  client: ClientAsker,
  params: Record<string, unknown>,
  signal: AbortSignal,
  waitMs: number,
  log: (line: string) => void,
): Promise<ElicitAnswer | undefined> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort('the client did not answer in time'), waitMs);
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await client.ask(params, stop.signal);
  } catch (err) {
    if (!stop.signal.aborted) log(`the client's elicitation failed: ${(err as Error).message}`);
    return undefined;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

async function onPhone(o: PolicyOptions, phone: PhoneAskContext, ask: Ask): Promise<ElicitAnswer> {
  return (await phoneOrFailed(o, phone, ask)) ?? { action: 'cancel' };
}

// Undefined when the phone could not be asked (unreachable, refused): alone that answers cancel; in a race it
// loses to the client rather than winning with a cancel nobody chose.
async function phoneOrFailed(
  o: PolicyOptions,
  phone: PhoneAskContext,
  ask: Ask,
): Promise<ElicitAnswer | undefined> {
  const id = `${process.pid}-${Date.now()}-${++asks}`;
  o.journal.open({ id, server: phone.server, message: ask.message, at: new Date().toISOString() });
  const run = () =>
    ask.mode === 'url'
      ? askUrlOnPhone(phone, ask.message, ask.url ?? '')
      : askFormOnPhone(phone, ask.message, ask.fields ?? []);
  try {
    // The screen each step shows is written down, so a restart after a kill can withdraw it.
    return o.screens ? await o.screens.during((screen) => o.journal.shown(id, screen), run) : await run();
  } catch (err) {
    if (!phone.signal?.aborted) o.log(`${phone.server}: the phone ask failed (${(err as Error).message})`);
    return undefined;
  } finally {
    o.journal.close(id);
  }
}

// Both at once: the first valid answer wins; the other side is withdrawn (the phone wait aborted, which
// withdraws its screen; the client's request cancelled).
async function race(
  o: PolicyOptions,
  phone: PhoneAskContext,
  ask: Ask,
  params: Record<string, unknown>,
  signal: AbortSignal,
  client: ClientAsker,
  valid: (a: ElicitAnswer) => boolean,
): Promise<ElicitAnswer> {
  const phoneStop = new AbortController();
  const clientStop = new AbortController();
  const onAbort = () => {
    phoneStop.abort(signal.reason);
    clientStop.abort(signal.reason);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // A side that fails (or gives an answer that does not fit) drops out; if both drop out, cancel.
    let out = 0;
    let bothOut!: () => void;
    const neither = new Promise<{ from: 'neither'; a: ElicitAnswer }>((r) => {
      bothOut = () => r({ from: 'neither', a: { action: 'cancel' } });
    });
    const dropOut = () => {
      if (++out === 2) bothOut();
      return new Promise<never>(() => {});
    };
    const phoneRun = phoneOrFailed(o, { ...phone, signal: phoneStop.signal }, ask);
    const phoneSide = phoneRun.then((a) => (a ? ({ from: 'phone', a } as const) : dropOut()));
    const clientSide = client
      .ask(params, clientStop.signal)
      .then((a) => (valid(a) ? ({ from: 'client', a } as const) : dropOut()), dropOut);
    const won = await Promise.race([phoneSide, clientSide, neither]);
    if (won.from === 'client') {
      phoneStop.abort('the client answered first');
      await phoneRun; // its screen is withdrawn before the answer goes back
    } else clientStop.abort('the phone answered first');
    o.log(`${phone.server}: answered (${won.a.action}) on the ${won.from}`);
    return won.a;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
