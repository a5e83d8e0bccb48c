// connect(): the client agent authors hold; one method per answerable component, each resolving with a typed answer.
import { buildComponent, formatChecked, type Op, ScreenLinesError } from '@screen-service/screen-lines';
import { AnswerPump, LONG_POLL_SECONDS } from './answer-pump.js';
import { AbortedError, ClosedError, InvalidArgumentError } from './errors.js';
import { createHostTransport } from './host-transport.js';
import { createMcpTransport, type TokenSource, type ToolTransport } from './mcp-transport.js';
import { createTables, type Tables } from './tables.js';
import type {
  Answer,
  AskOptions,
  FieldTypes,
  FormAnswer,
  FormFields,
  PhotoAnswer,
  ShownScreen,
  Thread,
} from './types.js';
import { deadlineTime, expectValue, waitForTap } from './waiting.js';

export interface ConnectOptions {
  /**
   * The tool server's address, `{base_url}/functions/v1/svc-mcp`; with `via: 'host-api'` the host API's,
   * `{base_url}/functions/v1/svc-connect`.
   */
  url: string;
  /** A connection token (`svc_ct_...`) or an OAuth access token (`svc_at_...`), or a function giving the current one. */
  token: TokenSource;
  /**
   * `tool-server` (default): the MCP tool server, for a connection paired as a tool client or an OAuth sign-in.
   * `host-api`: the host API, for a connector paired as a host; screens are idempotent replies and answers come
   * from the resumable message stream.
   */
  via?: 'tool-server' | 'host-api';
  /** The agent to talk as (handle or id); default: the connection's first agent. */
  agent?: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** A transport to use instead of the tool server's (tests, other wires). */
  transport?: ToolTransport;
  /** Seconds each long poll holds (1 to 25, default 25); a wait polls again and again until its answer comes. */
  pollSeconds?: number;
}

/** Options of `show`. */
export interface ShowOptions {
  text?: string;
  agent?: string;
}

/** A screen shown with `show`: wait for a tap on any of its components. */
export interface Screen extends ShownScreen {
  /** The next tap on `tapId` (default: the screen's first answerable component). */
  answer(tapId?: string, options?: { signal?: AbortSignal }): Promise<Answer>;
}

/** The client: every method talks to the person's phone through the service. */
export interface Svc {
  /** One of `options`, typed as their literal union. */
  choose<const O extends readonly string[]>(
    question: string,
    options: O,
    opts?: AskOptions<O[number]> & { multi?: false },
  ): Promise<O[number]>;
  /** Several of `options` (`+multi`). */
  choose<const O extends readonly string[]>(
    question: string,
    options: O,
    opts: AskOptions<O[number][]> & { multi: true },
  ): Promise<O[number][]>;
  /** Yes (true) or no (false); `yes` and `no` relabel the buttons. */
  confirm(question: string, opts?: AskOptions<boolean> & { yes?: string; no?: string }): Promise<boolean>;
  /** A typed answer: text by default; `type: 'number'` answers a number. */
  ask<T extends keyof FieldTypes = 'text'>(
    question: string,
    opts?: AskOptions<FieldTypes[T]> & { type?: Exclude<T, 'bool'>; placeholder?: string },
  ): Promise<FieldTypes[T]>;
  /** A step of a scale (1-10), a mood or a rating (1-5). */
  checkin(
    kind: 'scale' | 'mood' | 'rating',
    question: string,
    opts?: AskOptions<number> & { min?: number; max?: number },
  ): Promise<number>;
  /** Several typed fields at once; a field left empty is absent from the answer. */
  form<const F extends FormFields>(
    title: string,
    fields: F,
    opts?: AskOptions<FormAnswer<F>>,
  ): Promise<FormAnswer<F>>;
  /** Photos from the phone, as signed links valid 1 hour. */
  photo(prompt: string, opts?: AskOptions<PhotoAnswer> & { max?: number }): Promise<PhotoAnswer>;
  /** A chat line. */
  say(text: string, opts?: { agent?: string }): Promise<{ message_id: string }>;
  /** Any screen: Screen Lines text or ops (build them with `@screen-service/screen-lines`). */
  show(lines: string | readonly Op[], opts?: ShowOptions): Promise<Screen>;
  /** The next answer no wait took (typed text, taps on screens nobody waits for). */
  next(opts?: { signal?: AbortSignal; agent?: string }): Promise<Answer>;
  /** The agents this connection talks as, default first, with unread counts. */
  threads(): Promise<Thread[]>;
  /** The agent's tables. */
  readonly tables: Tables;
  /** Ends every wait and closes the connection. */
  close(): Promise<void>;
}

/** The tap id every asking method gives its one component. */
const ASK_ID = 'ask';

/**
 * Connects to the tool server (or, with `via: 'host-api'`, the host API). Nothing is sent until the first call.
 *
 * @example
 * ```ts
 * const svc = connect({ url: 'https://svc.example/functions/v1/svc-mcp', token: process.env.SVC_TOKEN! });
 * const lunch = await svc.choose('Lunch?', ['Soup', 'Salad']); // 'Soup' | 'Salad'
 * ```
 */
export function connect(options: ConnectOptions): Svc {
  if (typeof options?.url !== 'string' || !/^https?:\/\//.test(options.url))
    throw new InvalidArgumentError(
      'connect: url must be the service address, http(s)://.../functions/v1/svc-mcp (or .../svc-connect with via: host-api)',
    );
  if (typeof options.token !== 'function' && (typeof options.token !== 'string' || options.token === ''))
    throw new InvalidArgumentError(
      'connect: token must be a connection or access token (svc_ct_... or svc_at_...)',
    );
  const wire = { url: options.url, token: options.token, ...(options.fetch ? { fetch: options.fetch } : {}) };
  const transport =
    options.transport ?? (options.via === 'host-api' ? createHostTransport(wire) : createMcpTransport(wire));
  const pollSeconds = options.pollSeconds ?? LONG_POLL_SECONDS;
  if (!Number.isInteger(pollSeconds) || pollSeconds < 1 || pollSeconds > LONG_POLL_SECONDS)
    throw new InvalidArgumentError(
      `connect: pollSeconds must be a whole number from 1 to ${LONG_POLL_SECONDS}`,
    );
  const pumps = new Map<string, AnswerPump>();
  const pumpFor = (agent: string | undefined) => {
    const key = agent ?? '';
    const pump = pumps.get(key) ?? new AnswerPump({ transport, agent, pollSeconds });
    pumps.set(key, pump);
    return pump;
  };
  const agentOf = (o?: { agent?: string }) => o?.agent ?? options.agent;

  const showOps = async (
    ops: readonly Op[] | string,
    o: ShowOptions & { deadline?: AskOptions<unknown>['deadline'] },
  ) => {
    const lines = typeof ops === 'string' ? ops : checked(ops);
    const agent = agentOf(o);
    const args: Record<string, unknown> = { lines };
    if (o.text) args.text = o.text;
    if (agent) args.agent = agent;
    // Passed only when given: the service's `deadline` argument (the deadlines work) decides on its side.
    if (o.deadline) args.deadline = deadlineArgument(o.deadline, ASK_ID);
    return (await transport.call('svc_show', args)) as unknown as ShownScreen;
  };

  async function askOne<A>(op: Op, what: string, o: AskOptions<A> | undefined, decode: (a: Answer) => A) {
    // Aborted before it began: nothing reaches the phone (and so there is nothing to withdraw).
    if (o?.signal?.aborted)
      throw new AbortedError('The wait was aborted before the screen was shown.', o.signal.reason);
    const shown = await showOps([op], o ?? {});
    return waitForTap<A>({
      pump: pumpFor(agentOf(o)),
      transport,
      screenId: shown.screen_id,
      tapId: ASK_ID,
      agent: agentOf(o),
      decode,
      signal: o?.signal,
      deadline: o?.deadline,
      withdrawText: o?.withdrawText ?? `Never mind: ${what}`,
    });
  }
  const component = (preset: string, props: Record<string, unknown>) => buildComponent(preset, props, ASK_ID);

  const svc: Svc = {
    // biome-ignore lint/suspicious/noExplicitAny: the overloads above carry the types; this is their one body
    choose(question: string, opts: readonly string[], o?: AskOptions<any> & { multi?: boolean }) {
      const op = component('choose', { question, options: [...opts], multi: o?.multi === true });
      return askOne(op, question, o, (a) => {
        const v = a.event?.value;
        if (o?.multi)
          return expectValue(
            Array.isArray(v) && v.every((x) => opts.includes(x)),
            v,
            'some of the options',
          ) as never;
        return expectValue(
          typeof v === 'string' && opts.includes(v),
          v,
          `one of ${opts.join(', ')}`,
        ) as never;
      });
    },
    confirm(question, o) {
      const options = o?.yes || o?.no ? [o?.yes ?? 'Yes', o?.no ?? 'No'] : undefined;
      const op = component('confirm', { question, ...(options ? { options } : {}) });
      return askOne(
        op,
        question,
        o,
        (a) => expectValue(typeof a.event?.value === 'boolean', a.event?.value, 'true or false') as boolean,
      );
    },
    ask(question, o) {
      const type = o?.type ?? 'text';
      const op = component('ask', { question, type, placeholder: o?.placeholder });
      return askOne(op, question, o, (a) => {
        const v = a.event?.value;
        return expectValue(
          type === 'number' ? typeof v === 'number' : typeof v === 'string',
          v,
          `a ${type} answer`,
        ) as never;
      });
    },
    checkin(kind, question, o) {
      const op = component('checkin', { kind, question, min: o?.min, max: o?.max });
      return askOne(
        op,
        question,
        o,
        (a) => expectValue(typeof a.event?.value === 'number', a.event?.value, 'a number') as number,
      );
    },
    form(title, fields, o) {
      const list = Object.entries(fields).map(([key, type]) => ({ key, type }));
      const op = component('form', { title, fields: list });
      return askOne(op, title, o, (a) => {
        const v = a.event?.value;
        return expectValue(
          typeof v === 'object' && v !== null && !Array.isArray(v),
          v,
          'the form fields',
        ) as never;
      });
    },
    photo(prompt, o) {
      const op = component('photo', { prompt, max: o?.max });
      return askOne(op, prompt, o, (a) => {
        const count = expectValue(
          typeof a.event?.value === 'number',
          a.event?.value,
          'a photo count',
        ) as number;
        return { count, photos: a.photos };
      });
    },
    async say(text, o) {
      const agent = agentOf(o);
      const r = await transport.call('svc_say', { text, ...(agent ? { agent } : {}) });
      return { message_id: String(r.message_id) };
    },
    async show(lines, o = {}) {
      const shown = await showOps(lines, o);
      const pump = pumpFor(agentOf(o));
      return {
        ...shown,
        answer(tapId = shown.tap_ids[0] ?? '', opts = {}) {
          return pump.wait(
            (a) => a.kind === 'tap' && a.screen_id === shown.screen_id && a.event?.id === tapId,
            shown.screen_id,
            opts.signal,
          );
        },
      };
    },
    next(o) {
      return pumpFor(agentOf(o)).wait(() => true, undefined, o?.signal);
    },
    async threads() {
      // Answers already handed out are acknowledged first, so they do not count as unread.
      await Promise.all([...pumps.values()].map((p) => p.acknowledge()));
      const r = await transport.call('svc_threads', {});
      return r.agents as Thread[];
    },
    tables: createTables(transport, () => options.agent),
    async close() {
      // Best effort: what was handed out is acknowledged, so the next run is not sent it again.
      await Promise.all([...pumps.values()].map((p) => p.acknowledge().catch(() => {})));
      for (const pump of pumps.values()) pump.stop(new ClosedError());
      await transport.close();
    },
  };
  return svc;
}

function checked(ops: readonly Op[]): string {
  try {
    return formatChecked(ops);
  } catch (err) {
    if (err instanceof ScreenLinesError) throw new InvalidArgumentError(err.message, err);
    throw err;
  }
}

// svc_show's `deadline` (ADR 0260): the default is keyed by the tap it answers; the typed answer is the tap's
// value as the service records it (a choice's text, a confirm's boolean, a form's object). No default: the
// service expires the screen at the deadline.
function deadlineArgument(
  d: NonNullable<AskOptions<unknown>['deadline']>,
  tapId: string,
): Record<string, unknown> {
  const at = deadlineTime(d).toISOString();
  const steps = d.escalate?.length ? { escalate: d.escalate.map((s) => ({ ...s })) } : {};
  return 'default' in d && d.default !== undefined
    ? { at, default: { [tapId]: d.default }, ...steps }
    : { at, ...steps };
}
