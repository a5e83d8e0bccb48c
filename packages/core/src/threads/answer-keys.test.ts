// A person's answer sent twice with its idempotency key is written once (issue 45, ADR 0276): one after the
// other, at the same time, and after the screen's deadline passed. Runs on SQLite and again on PostgreSQL.
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';
let core: TestCore;
let principal: ConnectionPrincipal;
let userId: string;
let agentId: string;
let otherAgent: string;

beforeEach(async () => {
  core = createTestCore({ seed: 45 });
  userId = (await seedUser(core.store)).id;
  const { token, agents } = await seedConnection(core.store, userId, ['cook', 'gardener']);
  agentId = agents[0]!.id;
  otherAgent = agents[1]!.id;
  principal = await core.connectionAuth.verify(token);
});
afterEach(() => core.close());

/** What the agent reads next from the cook's thread (svc_answers hands each answer out once). */
async function answers() {
  return (await core.threadOps.answers(principal, { agent: 'cook' })).answers;
}

describe('answer keys', () => {
  it('a tap and a typed reply sent again with their keys answer the first and write nothing', async () => {
    const { screen_id } = await core.threadOps.show(principal, { lines: LUNCH });
    const tap = () =>
      core.threads.tap(userId, agentId, {
        screen_id,
        event: { id: 'lunch', value: 'Soup' },
        idempotency_key: 'tap-1',
      });
    const first = await tap();
    core.advance(1000);
    const again = await tap();
    expect(again.message.id).toBe(first.message.id);
    expect(again).toEqual(first);
    const say = () => core.threads.say(userId, agentId, { text: 'On my way', idempotency_key: 'say-1' });
    const said = await say();
    expect((await say()).id).toBe(said.id);
    const got = await answers();
    expect(got.map((a) => a.text.split('\n')[0])).toEqual(['[svc] lunch choose choice=Soup', 'On my way']);
    // Without a key each send is a new answer, as before.
    await core.threads.say(userId, agentId, { text: 'Again' });
    await core.threads.say(userId, agentId, { text: 'Again' });
    expect((await answers()).length).toBe(2);
  });

  it('three sends of one key at once: one row, and each answers it', async () => {
    const { screen_id } = await core.threadOps.show(principal, { lines: LUNCH });
    const taps = await Promise.all(
      [1, 2, 3].map(() =>
        core.threads.tap(userId, agentId, {
          screen_id,
          event: { id: 'lunch', value: 'Salad' },
          idempotency_key: 'same-tap',
        }),
      ),
    );
    expect(new Set(taps.map((t) => t.message.id)).size).toBe(1);
    const says = await Promise.all(
      [1, 2, 3].map(() => core.threads.say(userId, agentId, { text: 'Hi', idempotency_key: 'same-say' })),
    );
    expect(new Set(says.map((m) => m.id)).size).toBe(1);
    expect((await answers()).map((a) => a.kind)).toEqual(['tap', 'text']);
  });

  it('a resend after the deadline passed answers the tap that made it in time', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '10m', default: { lunch: 'Soup' } },
    });
    const tap = () =>
      core.threads.tap(userId, agentId, {
        screen_id: shown.screen_id,
        event: { id: 'lunch', value: 'Salad' },
        idempotency_key: 'in-time',
      });
    const first = await tap();
    core.advance(11 * 60_000);
    expect((await tap()).message.id).toBe(first.message.id);
    expect((await answers()).map((a) => a.event?.value)).toEqual(['Salad']);
    // A queued tap that reaches a screen after its deadline is refused with the service's reason, each time.
    const late = await core.threadOps.show(principal, { lines: LUNCH, deadline: { in: '1m' } });
    core.advance(2 * 60_000);
    const send = () =>
      core.threads.tap(userId, agentId, {
        screen_id: late.screen_id,
        event: { id: 'lunch', value: 'Salad' },
        idempotency_key: 'late',
      });
    await expect(send()).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'expired' } });
    await expect(send()).rejects.toThrow(/expired at .* takes no more answers/);
  });

  it('a key used for another answer, or spelled wrong, is refused and names the field', async () => {
    await core.threads.say(userId, agentId, { text: 'Hi', idempotency_key: 'k' });
    const other = core.threads.say(userId, otherAgent, { text: 'Hi', idempotency_key: 'k' });
    await expect(other).rejects.toMatchObject({ code: 'CONFLICT', field: 'idempotency_key' });
    const bad = core.threads.say(userId, agentId, { text: 'Hi', idempotency_key: 'no spaces' });
    await expect(bad).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'idempotency_key' });
    expect((await answers()).length).toBe(1);
  });
});
