// Waiting well against the real server: aborts withdraw, waits outlast one long poll, a dropped connection and a
// server restart lose no answer and repeat none, deadlines decide with the default.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AbortedError, connect, DeadlinePassedError, type Svc } from '../src/index.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

/** A fetch that reports each svc_answers request it starts (and can cut one off, as a dropped network would). */
function watchedFetch() {
  const polls: { done: Promise<unknown>; cut: () => void }[] = [];
  const bodies: string[] = [];
  let notify: (() => void) | undefined;
  const f: typeof fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    bodies.push(body);
    if (!body.includes('"svc_answers"')) return fetch(input, init);
    const cut = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal;
    const done = fetch(input, { ...init, signal });
    polls.push({ done: done.catch(() => undefined), cut: () => cut.abort(new TypeError('network dropped')) });
    notify?.();
    return done;
  };
  /** Resolves once at least `n` polls have started. */
  const started = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (polls.length >= n) {
          notify = undefined;
          resolve();
        } else notify = check;
      };
      check();
    });
  return { fetch: f, polls, started, bodies };
}

async function setUp(options: { pollSeconds?: number } = {}) {
  const paired = await pairedAgent(service.base);
  const watch = watchedFetch();
  const svc: Svc = connect({ url: service.mcpUrl, token: paired.token, fetch: watch.fetch, ...options });
  return { ...paired, svc, watch, seen: new Set<string>() };
}

describe('aborting a wait', () => {
  it('rejects at once, withdraws the screen on the phone and closes the long poll', async () => {
    const { svc, person, seen, watch } = await setUp();
    const stop = new AbortController();
    const lunch = svc.choose('Lunch?', ['Soup', 'Salad'], { signal: stop.signal });
    const first = await person.nextScreen(seen);
    await watch.started(1);
    const t0 = performance.now();
    stop.abort('changed my mind');
    await expect(lunch).rejects.toBeInstanceOf(AbortedError);
    expect(performance.now() - t0).toBeLessThan(2_000);
    // The service took the screen back (svc_withdraw, ADR 0279): the thread says so, with no chat line.
    const rows = await person.messages();
    expect(rows.filter((m) => m.meta.decided_by === 'agent').map((m) => m.meta.event)).toMatchObject([
      { screen: first.id },
    ]);
    expect(rows.map((m) => m.body)).not.toContain('Never mind: Lunch?');
    expect(watch.bodies.some((b) => b.includes('"svc_withdraw"'))).toBe(true);
    // The poll's request was closed: the service stops waiting (and so claims nothing); a tap is refused.
    await expect.poll(() => service.waiters(), { timeout: 5_000 }).toBe(0);
    await expect(person.tap(first.id, { id: 'ask', value: 'Soup' })).rejects.toThrow(
      /tap: 409 .*withdrawn by the agent/,
    );
    expect((await svc.threads())[0]?.unread).toBe(0);
    // The next question gets its own answer.
    const dinner = svc.choose('Dinner?', ['Pasta', 'Rice']);
    const second = await person.nextScreen(seen);
    await person.tap(second.id, { id: 'ask', value: 'Rice' });
    expect(await dinner).toBe('Rice');
    await person.say('hello');
    expect(await svc.next()).toMatchObject({ kind: 'text', text: 'hello' });
    await svc.close();
  });

  it('a service without svc_withdraw: the person reads "Never mind" and later taps are dropped', async () => {
    const paired = await pairedAgent(service.base);
    // An older service: the tool is not there (the real server answers for a tool it does not have).
    const older: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        ...(typeof init?.body === 'string'
          ? { body: init.body.replace('"name":"svc_withdraw"', '"name":"svc_withdraw_unknown"') }
          : {}),
      });
    const svc = connect({ url: service.mcpUrl, token: paired.token, fetch: older });
    const seen = new Set<string>();
    const stop = new AbortController();
    const lunch = svc.choose('Lunch?', ['Soup', 'Salad'], { signal: stop.signal });
    const first = await paired.person.nextScreen(seen);
    stop.abort();
    await expect(lunch).rejects.toBeInstanceOf(AbortedError);
    expect((await paired.person.messages()).map((m) => m.body)).toContain('Never mind: Lunch?');
    // Not withdrawn on the service: the tap lands, and the client drops it.
    await paired.person.tap(first.id, { id: 'ask', value: 'Soup' });
    const dinner = svc.choose('Dinner?', ['Pasta', 'Rice']);
    const second = await paired.person.nextScreen(seen);
    await paired.person.tap(second.id, { id: 'ask', value: 'Rice' });
    expect(await dinner).toBe('Rice');
    await svc.close();
  });

  it('withdrawText: false sends no chat line; an already aborted signal sends no screen at all', async () => {
    const { svc, person, seen } = await setUp();
    const stop = new AbortController();
    const q = svc.confirm('Quiet?', { signal: stop.signal, withdrawText: false });
    await person.nextScreen(seen);
    stop.abort();
    await expect(q).rejects.toMatchObject({ code: 'ABORTED' });
    // The screen and its withdraw row: nothing else.
    expect((await person.messages()).map((m) => [m.kind, m.meta.decided_by ?? null])).toEqual([
      ['screen', null],
      ['tap', 'agent'],
    ]);
    await expect(svc.choose('Too late?', ['Yes', 'No'], { signal: stop.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(await person.screens()).toHaveLength(1);
    await svc.close();
  });
});

describe('long waits and broken connections', () => {
  it('keeps waiting across several long polls', async () => {
    const { svc, person, seen, watch } = await setUp({ pollSeconds: 1 });
    const kg = svc.ask('Weight?', { type: 'number' });
    const screen = await person.nextScreen(seen);
    await watch.started(3);
    await person.tap(screen.id, { id: 'ask', value: 70 });
    expect(await kg).toBe(70);
    await svc.close();
  });

  it('a dropped connection during a wait loses no answer and repeats none', async () => {
    const { svc, person, seen, watch } = await setUp();
    const lunch = svc.choose('Lunch?', ['Soup', 'Salad']);
    const screen = await person.nextScreen(seen);
    await watch.started(1);
    watch.polls[0]?.cut();
    await watch.started(2);
    await person.tap(screen.id, { id: 'ask', value: 'Salad' });
    expect(await lunch).toBe('Salad');
    expect((await svc.threads())[0]?.unread).toBe(0);
    // Nothing is handed out twice: the next wait gets only what comes after.
    const again = svc.next();
    await person.say('after');
    expect(await again).toMatchObject({ text: 'after' });
    await svc.close();
  });

  it('a server restart during a wait loses no answer', async () => {
    const { svc, person, seen, watch } = await setUp();
    const lunch = svc.choose('Lunch?', ['Soup', 'Salad']);
    const screen = await person.nextScreen(seen);
    await watch.started(1);
    await service.restart();
    // The client retries while the server is down and polls again once it is back.
    const before = watch.polls.length;
    await watch.started(before + 1);
    await person.tap(screen.id, { id: 'ask', value: 'Soup' });
    expect(await lunch).toBe('Soup');
    expect((await svc.threads())[0]?.unread).toBe(0);
    await svc.close();
  });
});

describe('deadlines', () => {
  it('the service decides the default at the deadline, and the wait resolves with it', async () => {
    const { svc, person } = await setUp({ pollSeconds: 1 });
    const t0 = Date.now();
    const lunch = await svc.choose('Lunch?', ['Soup', 'Salad'], { deadline: { in: 6, default: 'Soup' } });
    expect(lunch).toBe('Soup');
    // It came from the service's decision (ADR 0260), before the client's own timer (deadline + 2 s) ran:
    // the client withdrew nothing, and the phone reads the screen as decided by default.
    expect(Date.now() - t0).toBeLessThan(8_000);
    expect((await person.messages()).map((m) => m.body)).not.toContain('Never mind: Lunch?');
    const [screen] = await person.screens();
    expect(screen).toBeDefined();
    await svc.close();
  });

  it("sends the deadline and the default keyed by its tap as svc_show's deadline argument", async () => {
    const { svc, watch } = await setUp({ pollSeconds: 1 });
    const t0 = Date.now();
    const ac = new AbortController();
    const wait = svc.choose('Dinner?', ['Soup', 'Salad'], {
      deadline: { in: 60, default: 'Salad' },
      signal: ac.signal,
    });
    const show = await vi.waitFor(() => {
      const found = watch.bodies
        .map((b) => (b ? JSON.parse(b) : {}))
        .find((m) => m.params?.name === 'svc_show');
      if (!found) throw new Error('svc_show not sent yet');
      return found;
    });
    const sent = show.params.arguments.deadline;
    expect(sent.default).toEqual({ ask: 'Salad' });
    expect(Math.abs(Date.parse(sent.at) - (t0 + 60_000))).toBeLessThan(1000);
    ac.abort();
    await expect(wait).rejects.toBeInstanceOf(AbortedError);
    await svc.close();
  });

  it('rejects with DeadlinePassedError when there is no default', async () => {
    const { svc } = await setUp({ pollSeconds: 1 });
    const at = new Date(Date.now() + 6_000);
    await expect(svc.confirm('Now?', { deadline: { at } })).rejects.toBeInstanceOf(DeadlinePassedError);
    await svc.close();
  });
});
