import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';
let core: TestCore;
let principal: ConnectionPrincipal;
let userId: string;

beforeEach(async () => {
  core = createTestCore({ seed: 40 });
  userId = (await seedUser(core.store)).id;
  const { token } = await seedConnection(core.store, userId, ['cook']);
  principal = await core.connectionAuth.verify(token);
});
afterEach(() => core.close());

async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

const personTap = async (c: TestCore, screenId: string, value: unknown, id = 'lunch') => {
  const screen = (await c.store.threads.getScreen(screenId))!;
  return c.threads.tap(userId, screen.agentId, { screen_id: screenId, event: { id, value } });
};

describe('deadlines', () => {
  it('lands the default once at the deadline, marked as such, and refuses a late tap saying why', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '10m', default: { lunch: 'Soup' } },
    });
    expect(shown.deadline?.due).toBe(new Date(core.clock() + 600_000).toISOString());
    core.advance(599_999);
    expect(await core.deadlines.sweep()).toEqual([]);
    expect((await core.threadOps.answers(principal, { screen_id: shown.screen_id })).answers).toEqual([]);
    core.advance(1);
    const [ran] = await core.deadlines.sweep();
    expect(ran).toMatchObject({ screenId: shown.screen_id, step: 'deadline', lateMs: 0 });
    expect(await core.deadlines.sweep()).toEqual([]);
    const { answers } = await core.threadOps.answers(principal, { screen_id: shown.screen_id });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      kind: 'tap',
      screen_id: shown.screen_id,
      decided_by: 'default',
      step: 'deadline',
      event: { id: 'lunch', value: 'Soup', decided_by: 'default', step: 'deadline' },
    });
    expect(answers[0]!.text).toMatch(/^\[svc\] lunch choose/);
    const late = await refusal(personTap(core, shown.screen_id, 'Salad'));
    expect(late.code).toBe('CONFLICT');
    expect(late.message).toMatch(/expired at .*: Soup was chosen by default, so this tap was not recorded/);
    expect((await core.threadOps.answers(principal, { screen_id: shown.screen_id })).answers).toEqual([]);
  });

  it('a person who answers in time wins: no default lands', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '1m', default: { lunch: 'Soup' } },
    });
    core.advance(30_000);
    await personTap(core, shown.screen_id, 'Salad');
    core.advance(60_000);
    expect(await core.deadlines.sweep()).toEqual([]);
    const { answers } = await core.threadOps.answers(principal, { screen_id: shown.screen_id });
    expect(answers.map((a) => [a.event?.value, a.decided_by])).toEqual([['Salad', undefined]]);
    expect(await core.store.deadlines.get(shown.screen_id)).toMatchObject({ outcome: 'answered' });
  });

  it('a tap at the deadline, before any sweep, is already late', async () => {
    const shown = await core.threadOps.show(principal, { lines: LUNCH, deadline: '30s' });
    core.advance(30_000);
    const late = await refusal(personTap(core, shown.screen_id, 'Salad'));
    expect(late.message).toMatch(/expired at .* and takes no more answers/);
    await core.deadlines.sweep();
    const { answers } = await core.threadOps.answers(principal, { screen_id: shown.screen_id });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      decided_by: 'default',
      event: { value: 'expired', preset: 'deadline' },
    });
  });

  it('decides on time after a restart between show and deadline, and two instances decide once', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '5m', default: { lunch: 'Soup' } },
    });
    // The process that showed it goes away; two new ones start on the same database.
    core.stopping.abort();
    const a = createTestCore({ testStore: core.testStore, clockStart: core.clock() + 300_000 });
    const b = createTestCore({ testStore: core.testStore, clockStart: core.clock() + 300_000 });
    const [ra, rb] = await Promise.all([a.deadlines.sweep(), b.deadlines.sweep()]);
    expect(ra.length + rb.length).toBe(1);
    const { answers } = await a.threadOps.answers(principal, { screen_id: shown.screen_id });
    expect(answers.map((x) => [x.event?.value, x.decided_by])).toEqual([['Soup', 'default']]);
    a.stopping.abort();
    b.stopping.abort();
  });

  it('a reminder step buzzes the screen again before the deadline', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: {
        in: '10m',
        default: 'none',
        escalate: [
          { at: '50%', do: 'remind' },
          { at: '-1m', do: 'urgent' },
        ],
      },
    });
    expect(shown.deadline?.steps.map((s) => s.do)).toEqual(['remind', 'urgent', 'deadline']);
    const before = (await core.store.threads.listPushIntents(userId)).length;
    core.advance(300_000);
    expect((await core.deadlines.sweep()).map((r) => r.step)).toEqual(['remind']);
    core.advance(240_000);
    expect((await core.deadlines.sweep()).map((r) => r.step)).toEqual(['urgent']);
    const intents = await core.store.threads.listPushIntents(userId);
    expect(intents.length - before).toBe(2);
    expect(intents.at(-1)?.messageId).toBe(shown.message_id);
    expect((await core.threadOps.answers(principal, { screen_id: shown.screen_id })).answers).toEqual([]);
  });

  it('the sweeper started with the service wakes at the deadline it was told of', async () => {
    const live = createTestCore({ clockMode: 'running' });
    const u = (await seedUser(live.store)).id;
    const p = await live.connectionAuth.verify((await seedConnection(live.store, u, ['cook'])).token);
    live.deadlines.start();
    try {
      const shown = await live.threadOps.show(p, {
        lines: LUNCH,
        deadline: { in: '5s', default: { lunch: 'Salad' } },
      });
      live.advance(4_900);
      const { answers } = await live.threadOps.answers(p, { screen_id: shown.screen_id, wait: 5 });
      expect(answers.map((x) => x.event?.value)).toEqual(['Salad']);
    } finally {
      await live.deadlines.stop();
      live.close();
    }
  });

  it('refuses a deadline it could not keep, naming the field, and shows nothing', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ in: '10m', at: '2030-01-01T00:00:00Z' }, 'deadline', /exactly one of "in"/],
      [{ in: 'soon' }, 'deadline.in', /duration like "90s"/],
      [{ at: '2030-01-01T00:00' }, 'deadline.at', /ISO 8601 time with a zone/],
      [{ in: '1s' }, 'deadline', /between 5 seconds and 30 days/],
      [{ in: '10m', default: { lunch: 'Pizza' } }, 'deadline.default.lunch', /Pizza/],
      [{ in: '10m', default: { dinner: 'Soup' } }, 'deadline.default', /dinner, not on this screen/],
      [
        { in: '10m', escalate: [{ at: '150%', do: 'remind' }] },
        'deadline.escalate[0].at',
        /before the deadline/,
      ],
      [
        { in: '10m', escalate: [{ at: '50%', do: 'ask' }] },
        'deadline.escalate[0].do',
        /"remind", "urgent" or "offer"/,
      ],
      [
        { in: '10m', escalate: [{ at: '50%', do: 'offer' }] },
        'deadline.escalate[0].to',
        /holders of this shared agent/,
      ],
    ];
    for (const [deadline, field, message] of cases) {
      const err = await refusal(
        core.threadOps.show(principal, { lines: LUNCH, deadline: deadline as never }),
      );
      expect([err.code, err.field]).toEqual(['INVALID_INPUT', field]);
      expect(err.message).toMatch(message);
    }
    const [agent] = await core.store.agents.listByUser(userId);
    expect(await core.store.threads.page({ agentId: agent!.id, userId, limit: 10 })).toEqual([]);
  });
});
