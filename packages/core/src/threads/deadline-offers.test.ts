// Escalation that offers an ask to a shared agent's holders (issue 40, ADR 0280), with an injected clock: the
// step shows the ask in each named holder's thread; the first answer wins, the others are withdrawn (screen and
// notification); the agent reads the answer marked `decided_by: escalation`; the receipt says so.

import { staleBody } from '@screen-service/push';
import { receiptPayload } from '@screen-service/receipts';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { createTestCore, seedConnection, seedGrant, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';
let core: TestCore;
let principal: ConnectionPrincipal;
let owner: string;
let agentId: string;
let ana: string;
let ben: string;

beforeEach(async () => {
  core = createTestCore({ seed: 80 });
  owner = (await seedUser(core.store)).id;
  const { token, agents } = await seedConnection(core.store, owner, ['cook']);
  agentId = agents[0]!.id;
  principal = await core.connectionAuth.verify(token);
  ana = (await seedUser(core.store)).id;
  ben = (await seedUser(core.store)).id;
  for (const holder of [ana, ben]) {
    await seedGrant(core.store, { agentId, ownerId: owner, userId: holder }, { at: core.clock() });
  }
  await core.store.push.saveSubscription({
    id: 'psub_ben',
    userId: ben,
    endpoint: 'https://push.example/ben',
    p256dh: `B${'A'.repeat(86)}`,
    auth: 'AAAAAAAAAAAAAAAAAAAAAA',
    device: 'd-ben',
    createdAt: core.clock(),
  });
});
afterEach(() => core.close());

/** Shows the ask with a 10-minute deadline offered to both holders at half-time, and runs that step. */
async function offered(deadline: Record<string, unknown> = { default: { lunch: 'Soup' } }) {
  const shown = await core.threadOps.show(principal, {
    lines: LUNCH,
    deadline: {
      in: '10m',
      ...deadline,
      escalate: [{ at: '50%', do: 'offer', to: [ana, `${agentId}~${ben}`] }],
    },
  });
  core.advance(300_000);
  expect((await core.deadlines.sweep()).map((r) => r.step)).toEqual(['offer']);
  const screenOf = async (holder: string) => {
    const { messages } = await core.threads.page(holder, agentId);
    return messages.find((m) => m.screen)!.screen!.id;
  };
  return { shown, anaScreen: await screenOf(ana), benScreen: await screenOf(ben) };
}

const tap = (holder: string, screen_id: string, value: string) =>
  core.threads.tap(
    holder,
    agentId,
    { screen_id, event: { id: 'lunch', value } },
    { session: `fam_${holder}` },
  );

describe('an ask offered to the holders of a shared agent', () => {
  it("shows it in each holder's thread; the first answer wins and the others are withdrawn", async () => {
    const { shown, anaScreen, benScreen } = await offered();
    expect(anaScreen).not.toBe(benScreen);
    const at = core.clock();
    await core.store.push.saveNotice({
      id: 'pn_ben',
      userId: ben,
      agentId,
      subscriptionId: 'psub_ben',
      messageId: (await core.store.threads.getScreen(benScreen))!.messageId,
      screenId: benScreen,
      tokenHash: 'hash-ben',
      tapId: 'lunch',
      choices: ['Soup', 'Salad'],
      createdAt: at,
      expiresAt: at + 600_000,
      usedAt: null,
      closedAt: null,
    });
    core.advance(1000);
    await tap(ana, anaScreen, 'Salad');
    // Ben's offer is withdrawn: his tap is refused and his notification is replaced.
    await expect(tap(ben, benScreen, 'Soup')).rejects.toMatchObject({ code: 'CONFLICT' });
    const stale = (await core.store.push.due(core.clock(), 10)).filter((d) => d.row.kind === 'stale');
    expect(stale.map((d) => d.subscription.device)).toEqual(['d-ben']);
    expect(staleBody((await core.store.threads.getMessage(stale[0]!.row.messageId!))!)).toBe(
      'Withdrawn by the agent',
    );
    // The agent reads Ana's answer on its own screen, marked as decided through the escalation.
    const { answers } = await core.threadOps.answers(principal, {});
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Salad', decided_by: 'escalation', by: ana },
      decided_by: 'escalation',
      step: 'offer',
      by: ana,
    });
    // The owner's phone names who answered (the holder's email here: no first name); the agent's answer
    // carries the holder's id only.
    const { messages: own } = await core.threads.page(owner, agentId);
    const landed = own.find((m) => m.meta.via === 'escalation');
    expect(landed?.meta.by_name).toBe((await core.store.users.findById(ana))!.email);
    expect(JSON.stringify(answers[0])).not.toContain('by_name');
    expect(receiptPayload(answers[0]!.receipt!)!).toMatchObject({
      how: 'escalation',
      decided_by: 'escalation',
      who: { user: ana },
      screen: { id: shown.screen_id },
    });
    // The deadline passes: nothing more lands, in any thread.
    core.advance(600_000);
    await core.deadlines.sweep();
    expect((await core.threadOps.answers(principal, {})).answers).toEqual([]);
    expect(await core.store.deadlines.nextDueAt()).toBeNull();
  });

  it('the person asked answering first withdraws every offer', async () => {
    const { shown, anaScreen, benScreen } = await offered();
    await core.threads.tap(owner, agentId, {
      screen_id: shown.screen_id,
      event: { id: 'lunch', value: 'Soup' },
    });
    for (const [holder, screen] of [
      [ana, anaScreen],
      [ben, benScreen],
    ] as const) {
      await expect(tap(holder, screen, 'Salad')).rejects.toMatchObject({ code: 'CONFLICT' });
    }
    const { answers } = await core.threadOps.answers(principal, {});
    expect(answers.map((a) => [a.event?.value, a.decided_by ?? 'person'])).toEqual([['Soup', 'person']]);
  });

  it('the deadline decides when nobody answered: the default lands and the offers are withdrawn', async () => {
    const { anaScreen } = await offered();
    core.advance(300_000);
    await core.deadlines.sweep();
    const { answers } = await core.threadOps.answers(principal, {});
    expect(answers.map((a) => [a.event?.value, a.decided_by])).toEqual([['Soup', 'default']]);
    await expect(tap(ana, anaScreen, 'Salad')).rejects.toMatchObject({ code: 'CONFLICT' });
    const { messages } = await core.threads.page(ana, agentId);
    expect(messages.at(-1)?.meta).toMatchObject({ decided_by: 'agent', echo: 'Withdrawn' });
    expect(await core.store.deadlines.nextDueAt()).toBeNull();
  });

  it('refuses an offer to someone who holds no share, and a malformed list', async () => {
    const stranger = (await seedUser(core.store)).id;
    const show = (to: unknown) =>
      core.threadOps.show(principal, {
        lines: LUNCH,
        deadline: { in: '10m', escalate: [{ at: '50%', do: 'offer', to }] } as never,
      });
    await expect(show([stranger])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      field: 'deadline.escalate[0].to',
      message: expect.stringContaining('does not hold a share'),
    });
    await expect(show([])).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'deadline.escalate[0].to' });
    await expect(show('everyone')).rejects.toMatchObject({ field: 'deadline.escalate[0].to' });
  });
});
