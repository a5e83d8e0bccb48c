// Withdrawing a screen (issue 44, ADR 0279) and the tap path around it (issue 40): a withdrawn screen takes
// no tap, its deadline is cancelled, its notifications are closed and replaced, its receipt is in the chain;
// the tap path still settles a screen's notices; a receipt names the device that tapped.

import { staleBody } from '@screen-service/push';
import { receiptPayload, verifyReceipts } from '@screen-service/receipts';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import { hashSecret } from '@screen-service/registry/kernel';
import type { PushNoticeRecord } from '@screen-service/registry/model';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const LUNCH = 'choose@lunch "Lunch?" Soup|Salad';
const TOKEN = `svc_nt_${'a'.repeat(43)}`;
let core: TestCore;
let principal: ConnectionPrincipal;
let userId: string;
let agentId: string;

beforeEach(async () => {
  core = createTestCore({ seed: 44 });
  userId = (await seedUser(core.store)).id;
  const { token, agents } = await seedConnection(core.store, userId, ['cook']);
  agentId = agents[0]!.id;
  principal = await core.connectionAuth.verify(token);
  for (const device of ['phone', 'laptop']) {
    await core.store.push.saveSubscription({
      id: `psub_${device}`,
      userId,
      endpoint: `https://push.example/${device}`,
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      device: `d-${device}`,
      createdAt: core.clock(),
    });
  }
});
afterEach(() => core.close());

/** Records the screen's notification on both devices; the phone's carries the answer token `TOKEN`. */
async function notify(shown: { screen_id: string; message_id: string }) {
  const at = core.clock();
  const notice = (device: string): PushNoticeRecord => ({
    id: `pn_${device}`,
    userId,
    agentId,
    subscriptionId: `psub_${device}`,
    messageId: shown.message_id,
    screenId: shown.screen_id,
    tokenHash: device === 'phone' ? hashSecret(TOKEN) : `hash-${device}`,
    tapId: 'lunch',
    choices: ['Soup', 'Salad'],
    createdAt: at,
    expiresAt: at + 600_000,
    usedAt: null,
    closedAt: null,
  });
  await core.store.push.saveNotice(notice('phone'));
  await core.store.push.saveNotice(notice('laptop'));
}

/** The stale replacements queued now: which devices, and what each notification will say. */
async function stale() {
  const due = (await core.store.push.due(core.clock(), 50)).filter((d) => d.row.kind === 'stale');
  const bodies = await Promise.all(
    due.map(async (d) => staleBody((await core.store.threads.getMessage(d.row.messageId ?? ''))!)),
  );
  return { devices: due.map((d) => d.subscription.device).sort(), bodies };
}

const tap = (screen_id: string, value = 'Soup') =>
  core.threads.tap(userId, agentId, { screen_id, event: { id: 'lunch', value } }, { session: 'fam_1' });

describe('withdrawing a screen', () => {
  it('takes no more taps, keeps a handled row the phone draws, and signs a receipt in the chain', async () => {
    const shown = await core.threadOps.show(principal, { lines: LUNCH });
    core.advance(1000);
    const done = await core.threadOps.withdraw(principal, { screen_id: shown.screen_id });
    expect(done).toEqual({
      screen_id: shown.screen_id,
      withdrawn: true,
      at: new Date(core.clock()).toISOString(),
      already: false,
    });
    await expect(tap(shown.screen_id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('withdrawn by the agent'),
      details: { reason: 'withdrawn' },
    });
    const { messages } = await core.threads.page(userId, agentId);
    const row = messages.at(-1)!;
    expect(row).toMatchObject({
      sender: 'person',
      kind: 'tap',
      meta: { echo: 'Withdrawn', decided_by: 'agent', event: { screen: shown.screen_id } },
    });
    expect(row.handled_at).not.toBeNull();
    // The agent took it back: nothing of it comes back as an answer.
    expect((await core.threadOps.answers(principal, {})).answers).toEqual([]);
    // Again: already withdrawn, nothing new written.
    const again = await core.threadOps.withdraw(principal, { screen_id: shown.screen_id });
    expect(again).toMatchObject({ already: true, at: done.at });
    expect((await core.threads.page(userId, agentId)).messages).toHaveLength(messages.length);
    const lines = await core.receipts.exportThread({ agentId, userId });
    const receipts = lines.trim().split('\n');
    expect(receipts).toHaveLength(1);
    expect(receiptPayload(receipts[0]!)!).toMatchObject({
      how: 'withdraw',
      decided_by: 'agent',
      screen: { id: shown.screen_id },
    });
    expect(verifyReceipts(lines, await core.receipts.jwks())).toEqual({
      receipts: 1,
      verified: 1,
      problems: [],
    });
  });

  it('cancels the deadline, closes the notifications and replaces them on every device', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '10m', default: { lunch: 'Soup' } },
    });
    await notify(shown);
    await core.threadOps.withdraw(principal, { screen_id: shown.screen_id });
    expect(await stale()).toEqual({
      devices: ['d-laptop', 'd-phone'],
      bodies: ['Withdrawn by the agent', 'Withdrawn by the agent'],
    });
    await expect(
      core.notificationAnswers.answer({ token: TOKEN, screen_id: shown.screen_id, value: 'Salad' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    // The deadline passes: no default lands on a withdrawn screen.
    core.advance(600_000);
    expect(await core.deadlines.sweep()).toEqual([]);
    expect((await core.threadOps.answers(principal, {})).answers).toEqual([]);
  });

  it('is refused once the deadline decided, and for a screen of another connection', async () => {
    const shown = await core.threadOps.show(principal, {
      lines: LUNCH,
      deadline: { in: '10m', default: { lunch: 'Soup' } },
    });
    core.advance(600_000);
    await core.deadlines.sweep();
    await expect(core.threadOps.withdraw(principal, { screen_id: shown.screen_id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('Soup was chosen by default'),
    });
    const other = await seedConnection(core.store, (await seedUser(core.store)).id, ['spy']);
    const spy = await core.connectionAuth.verify(other.token);
    await expect(core.threadOps.withdraw(spy, { screen_id: shown.screen_id })).rejects.toMatchObject({
      code: 'SCREEN_NOT_FOUND',
    });
    await expect(core.threadOps.withdraw(principal, { screen_id: 7 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('is the same call through the host API', async () => {
    const shown = await core.threadOps.show(principal, { lines: LUNCH });
    const done = await core.hostTransport.withdraw(principal, { screen_id: shown.screen_id });
    expect(done).toMatchObject({ screen_id: shown.screen_id, already: false });
  });
});

describe('the tap path', () => {
  it('closes the notices of a screen without a deadline when a tap in the app answers it', async () => {
    const shown = await core.threadOps.show(principal, { lines: LUNCH });
    await notify(shown);
    await tap(shown.screen_id);
    expect(await stale()).toEqual({
      devices: ['d-laptop', 'd-phone'],
      bodies: ['Answered in the app: Soup', 'Answered in the app: Soup'],
    });
    expect((await core.store.deadlines.stakes(shown.screen_id)).openNotice).toBe(false);
  });

  it("names the device in the receipt: the app's own id, or the notification's device", async () => {
    const first = await core.threadOps.show(principal, { lines: LUNCH });
    await core.threads.tap(
      userId,
      agentId,
      { screen_id: first.screen_id, event: { id: 'lunch', value: 'Soup' } },
      { session: 'fam_1', device: 'd-tablet' },
    );
    const second = await core.threadOps.show(principal, { lines: LUNCH });
    await notify(second);
    await core.notificationAnswers.answer({ token: TOKEN, screen_id: second.screen_id, value: 'Salad' });
    const { answers } = await core.threadOps.answers(principal, {});
    const who = answers.map((a) => receiptPayload(a.receipt!)!.who);
    expect(who).toEqual([
      { user: userId, session: 'fam_1', device: 'd-tablet' },
      { user: userId, session: null, device: 'd-phone' },
    ]);
    await expect(
      core.threads.tap(
        userId,
        agentId,
        { screen_id: first.screen_id, event: { id: 'lunch', value: 'Soup' } },
        { device: 'not a device!' },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'device' });
  });
});
