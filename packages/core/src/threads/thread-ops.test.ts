import { makeDefaultAgent } from '@screen-service/registry/agents';
import { type ConnectionPrincipal, createConnectionAuth } from '@screen-service/registry/hosts';
import { createNotifier, type Notifier, ServiceError } from '@screen-service/registry/kernel';
import {
  type TestStore as Harness,
  createTestStore as openHarness,
  seedConnection,
  seedUser,
} from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createThreadCore } from './thread-core.js';
import { createThreadOps, type ThreadOps } from './thread-ops.js';

let h: Harness;
let notifier: Notifier;
let ops: ThreadOps;
let principal: ConnectionPrincipal;
let userId: string;
let agentIds: string[];

beforeEach(async () => {
  h = openHarness();
  notifier = createNotifier();
  ops = createThreadOps({ store: h.store, notifier });
  const user = await seedUser(h.store);
  userId = user.id;
  const { token, agents } = await seedConnection(h.store, user.id, ['coach', 'cook']);
  agentIds = agents.map((a) => a.id);
  principal = await createConnectionAuth({ store: h.store }).verify(token);
});
afterEach(() => h.close());

const personTap = (screenId: string, id: string, value: unknown) =>
  h.store.threads
    .getScreen(screenId)
    .then((screen) =>
      createThreadCore({ store: h.store, notifier }).recordTap(
        screen!,
        { id, value },
        { via: 'app', handled: false },
      ),
    );
const personSay = (agentId: string, text: string) =>
  createThreadCore({ store: h.store, notifier }).appendPersonText(userId, agentId, text);

/**
 * Resolves once the next `claimAnswers` returned: a wait started before it is then parked (its first claim,
 * with its connection check, is behind it), not still on its way to its first check.
 */
function nextClaimDone(): Promise<void> {
  const threads = h.store.threads;
  const claim = threads.claimAnswers;
  return new Promise((resolve) => {
    threads.claimAnswers = async (...args) => {
      threads.claimAnswers = claim;
      try {
        return await claim.apply(threads, args);
      } finally {
        resolve();
      }
    };
  });
}

async function rejects(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  expect((err as ServiceError).code).toBe(code);
  return err as ServiceError;
}

describe('threads', () => {
  it('lists the agents this connection serves, default first, with unread counts', async () => {
    await makeDefaultAgent(h.store, userId, agentIds[1]!, Date.now());
    await personSay(agentIds[1]!, 'hello');
    const { agents } = await ops.threads(principal);
    expect(agents.map((a) => a.handle)).toEqual(['cook', 'coach']);
    expect(agents[0]).toMatchObject({ is_default: true, unread: 1 });
    expect(agents[1]).toMatchObject({ is_default: false, unread: 0 });
  });

  it('never lists agents of another connection of the same user', async () => {
    await seedConnection(h.store, userId, ['other']);
    const { agents } = await ops.threads(principal);
    expect(agents.map((a) => a.handle)).toEqual(['coach', 'cook']);
  });
});

describe('show', () => {
  it('writes a screen to the default agent and returns its id and tap ids', async () => {
    const r = await ops.show(principal, {
      lines: 'choose@lunch "Lunch?" Pasta|Salad\ntimer 5m Tea',
      text: 'Hi',
    });
    expect(r.agent.handle).toBe('coach');
    expect(r.tap_ids).toEqual(['lunch', 'n2']);
    const screen = await h.store.threads.getScreen(r.screen_id);
    expect(screen).toMatchObject({ agentId: agentIds[0], lines: r.lines });
    const [row] = await h.store.threads.page({ agentId: agentIds[0]!, userId, limit: 5 });
    expect(row).toMatchObject({
      sender: 'agent',
      kind: 'screen',
      screenId: r.screen_id,
      meta: { text: 'Hi' },
    });
  });

  it('takes the agent by handle or id', async () => {
    expect((await ops.show(principal, { lines: 'timer 1m x', agent: 'cook' })).agent.id).toBe(agentIds[1]);
    expect((await ops.show(principal, { lines: 'timer 1m x', agent: agentIds[1]! })).agent.handle).toBe(
      'cook',
    );
    const e = await rejects(ops.show(principal, { lines: 'timer 1m x', agent: 'nobody' }), 'AGENT_NOT_FOUND');
    expect(e.message).toContain('coach, cook');
  });

  it('refuses lines that do not parse with the parser message and writes nothing', async () => {
    const e = await rejects(ops.show(principal, { lines: 'timer 1m ok\nbogus thing' }), 'INVALID_LINES');
    expect(e.message).toMatch(/^line 2: unknown component 'bogus'/);
    expect(e.details).toEqual([expect.objectContaining({ code: 'UNKNOWN_COMPONENT', line: 2 })]);
    expect(await h.store.threads.page({ agentId: agentIds[0]!, userId, limit: 5 })).toEqual([]);
    await rejects(ops.show(principal, { lines: '   ' }), 'INVALID_INPUT');
  });

  it('records a push intent unless the thread is open', async () => {
    await ops.show(principal, { lines: 'timer 1m a' });
    await h.store.push.setPresence({ agentId: agentIds[0]!, userId }, 'phone', Date.now() + 60_000);
    await ops.say(principal, { text: 'while open' });
    await h.store.push.setPresence({ agentId: agentIds[0]!, userId }, 'phone', null);
    await ops.say(principal, { text: 'closed again' });
    expect(await h.store.threads.listPushIntents(userId)).toHaveLength(2);
  });
});

describe('say', () => {
  it('writes a chat line as the agent', async () => {
    const r = await ops.say(principal, { text: 'Back in 5', agent: 'cook' });
    const [row] = await h.store.threads.page({ agentId: agentIds[1]!, userId, limit: 1 });
    expect(row).toMatchObject({ id: r.message_id, sender: 'agent', kind: 'text', body: 'Back in 5' });
    await rejects(ops.say(principal, { text: '' }), 'INVALID_INPUT');
  });
});

describe('tap', () => {
  it('computes preset, line and echo on the server and refuses components not on the screen', async () => {
    const { screen_id } = await ops.show(principal, { lines: 'choose@lunch "Lunch?" Pasta|Salad' });
    const r = await ops.tap(principal, {
      screen_id,
      event: { id: 'lunch', value: 'Pasta', preset: 'fake', line: 'forged' },
    });
    expect(r.line).toBe(
      `[svc] lunch choose choice=Pasta\n${JSON.stringify({ id: 'lunch', preset: 'choose', value: 'Pasta', screen: screen_id })}`,
    );
    expect(r).toMatchObject({ echo: 'Pasta', handled: false });
    await rejects(ops.tap(principal, { screen_id, event: { id: 'dinner', value: 1 } }), 'NOT_ON_SCREEN');
    await rejects(ops.tap(principal, { screen_id: 'scr_nope', event: { id: 'lunch' } }), 'SCREEN_NOT_FOUND');
  });

  it('writes a told_model tap handled, so answers does not return it again', async () => {
    const { screen_id } = await ops.show(principal, { lines: 'choose@a "Q" x|y' });
    await ops.tap(principal, { screen_id, event: { id: 'a', value: 'x' }, told_model: true });
    await ops.tap(principal, { screen_id, event: { id: 'a', value: 'y' }, told_model: false });
    const { answers } = await ops.answers(principal, { screen_id });
    expect(answers.map((a) => a.event?.value)).toEqual(['y']);
  });

  it('refuses a screen in a thread the connection does not serve', async () => {
    const other = await seedConnection(h.store, userId, ['elsewhere']);
    const otherPrincipal = await createConnectionAuth({ store: h.store }).verify(other.token);
    const { screen_id } = await ops.show(otherPrincipal, { lines: 'choose@a "Q" x|y' });
    await rejects(ops.tap(principal, { screen_id, event: { id: 'a', value: 'x' } }), 'SCREEN_NOT_FOUND');
    await rejects(ops.answers(principal, { screen_id }), 'SCREEN_NOT_FOUND');
  });
});

describe('answers', () => {
  it('a wait of a connection removed meanwhile ends refused and leaves the next message unclaimed', async () => {
    const parked = nextClaimDone();
    const waiting = ops.answers(principal, { wait: 5 });
    await parked;
    await h.store.connectors.revoke(principal.connectorId, Date.now());
    await personSay(agentIds[0]!, 'sent after the removal');
    await rejects(waiting, 'CONNECTOR_REVOKED');
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(1);
  });

  it('a connection removed right before its claim ran claims nothing (ADR 0298)', async () => {
    // Right before the claim's statement runs (after the wait found the connection's agent): the person removes
    // the connection in the app and writes.
    const threads = h.store.threads;
    const claim = threads.claimAnswers;
    let raced = false;
    threads.claimAnswers = async (...args) => {
      threads.claimAnswers = claim;
      await h.store.connectors.revoke(principal.connectorId, Date.now());
      await personSay(agentIds[0]!, 'sent after the removal');
      raced = true;
      return claim.apply(threads, args);
    };
    await rejects(ops.answers(principal, {}), 'CONNECTOR_REVOKED');
    expect(raced).toBe(true);
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(1);
    // The message waits for the connection that serves the agent next.
    const next = await seedConnection(h.store, userId, []);
    await h.store.agents.addConnection(agentIds[0]!, next.connector.id, userId, Date.now());
    const nextPrincipal = await createConnectionAuth({ store: h.store }).verify(next.token);
    const got = await ops.answers(nextPrincipal, { agent: 'coach' });
    expect(got.answers.map((a) => a.text)).toEqual(['sent after the removal']);
  });

  it('a connection suspended right before its claim ran claims nothing', async () => {
    const threads = h.store.threads;
    const claim = threads.claimAnswers;
    threads.claimAnswers = async (...args) => {
      threads.claimAnswers = claim;
      await personSay(agentIds[0]!, 'sent while suspended');
      // What an operator's suspension leaves in the store (no repository method sets it).
      await h.inspect!.update('connectors', { suspended_at: Date.now() }, { id: principal.connectorId });
      return claim.apply(threads, args);
    };
    await rejects(ops.answers(principal, {}), 'SUSPENDED');
    expect(await h.store.threads.countUnhandled({ agentId: agentIds[0]!, userId })).toBe(1);
  });

  it('a wait of a connection removed meanwhile ends at the removal, not at its timeout (issue 46)', async () => {
    const started = Date.now();
    const parked = nextClaimDone();
    const waiting = ops.answers(principal, { wait: 25 });
    await parked;
    // What removing a connection in the app does: revoke it, then publish `agents` for the person.
    await h.store.connectors.revoke(principal.connectorId, Date.now());
    notifier.publish({ type: 'agents', userId });
    await rejects(waiting, 'CONNECTOR_REVOKED');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('returns taps and typed text oldest first, each once', async () => {
    const { screen_id } = await ops.show(principal, { lines: 'choose@a "Q" x|y' });
    await personTap(screen_id, 'a', 'x');
    await personSay(agentIds[0]!, 'and also this');
    const first = await ops.answers(principal, {});
    expect(first.answers.map((a) => [a.kind, a.kind === 'tap' ? a.event?.value : a.text])).toEqual([
      ['tap', 'x'],
      ['text', 'and also this'],
    ]);
    expect((await ops.answers(principal, {})).answers).toEqual([]);
  });

  it('with screen_id returns only items after that screen', async () => {
    await personSay(agentIds[0]!, 'before');
    const { screen_id } = await ops.show(principal, { lines: 'timer 1m t' });
    await personSay(agentIds[0]!, 'after');
    expect((await ops.answers(principal, { screen_id })).answers.map((a) => a.text)).toEqual(['after']);
    expect((await ops.answers(principal, {})).answers.map((a) => a.text)).toEqual(['before']);
  });

  it('keeps threads apart: cook answers never reach coach', async () => {
    await personSay(agentIds[1]!, 'for cook');
    expect((await ops.answers(principal, {})).answers).toEqual([]);
    expect((await ops.answers(principal, { agent: 'cook' })).answers.map((a) => a.text)).toEqual([
      'for cook',
    ]);
  });

  it('refuses a wait outside 0..25', async () => {
    await rejects(ops.answers(principal, { wait: 26 }), 'INVALID_INPUT');
    await rejects(ops.answers(principal, { wait: 1.5 }), 'INVALID_INPUT');
  });

  // How many milliseconds the wake takes is measured by apps/server's wake benchmark, not asserted here.
  it('a waiting call wakes on the tap, long before its wait ends', async () => {
    const { screen_id } = await ops.show(principal, { lines: 'choose@a "Q" x|y' });
    const started = Date.now();
    const waiting = ops.answers(principal, { screen_id, wait: 10 });
    await vi.waitFor(() => expect(notifier.listenerCount(userId)).toBe(1));
    await personTap(screen_id, 'a', 'y');
    const r = await waiting;
    expect(r.answers.map((a) => a.event?.value)).toEqual(['y']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(notifier.listenerCount(userId)).toBe(0);
  });

  it('returns each item once to concurrent waiting callers', async () => {
    const { screen_id } = await ops.show(principal, { lines: 'ask@a "Q" type=number' });
    const callers = Array.from({ length: 8 }, () => ops.answers(principal, { wait: 3 }));
    await vi.waitFor(() => expect(notifier.listenerCount(userId)).toBe(8));
    for (let i = 0; i < 20; i++) await personTap(screen_id, 'a', i);
    const results = await Promise.all(callers);
    const seen = results.flatMap((r) => r.answers.map((a) => a.event?.value));
    // Whatever the waiters did not take is still there for the next call; nothing is returned twice.
    const rest = (await ops.answers(principal, {})).answers.map((a) => a.event?.value);
    const all = [...seen, ...rest];
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(20);
  });

  it('times out with no answers and cancels at once on abort without claiming', async () => {
    const t0 = Date.now();
    expect((await ops.answers(principal, { wait: 1 })).answers).toEqual([]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    const controller = new AbortController();
    const waiting = ops.answers(principal, { wait: 20, signal: controller.signal });
    await vi.waitFor(() => expect(notifier.listenerCount(userId)).toBe(1));
    const t1 = Date.now();
    controller.abort();
    expect((await waiting).answers).toEqual([]);
    // Far before the 20 s wait: the abort ended it (the exact delay is not a test's business).
    expect(Date.now() - t1).toBeLessThan(5_000);
    expect(notifier.listenerCount(userId)).toBe(0);
  });
});

describe('quiet taps', () => {
  it('writes a timer start and a checklist tick handled; they never reach answers', async () => {
    const { screen_id } = await ops.show(principal, { lines: 'timer 5m Tea\nchecklist Pack Keys|Phone' });
    await ops.tap(principal, { screen_id, event: { id: 'n1', value: 'start', seconds: 300 } });
    await ops.tap(principal, { screen_id, event: { id: 'n2', value: { item: 'Keys', checked: true } } });
    await ops.tap(principal, { screen_id, event: { id: 'n1', value: 'done', seconds: 300 } });
    const { answers } = await ops.answers(principal, { screen_id });
    expect(answers.map((a) => a.text.split('\n')[0])).toEqual(['[svc] n1 timer timer=done']);
  });
});

describe('shutdown', () => {
  it('ends waiting answers at once when the process stops', async () => {
    const stop = new AbortController();
    const stoppable = createThreadOps({ store: h.store, notifier, shutdown: stop.signal });
    const waiting = stoppable.answers(principal, { wait: 20 });
    await vi.waitFor(() => expect(notifier.listenerCount(userId)).toBe(1));
    const t0 = Date.now();
    stop.abort();
    expect((await waiting).answers).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(notifier.listenerCount(userId)).toBe(0);
  });
});
