// A deadline that decides withdraws the screen's notifications (ADR 0257, 0260): the answer tokens close and
// each device still showing the ask gets the quiet replacement, which reads what the deadline decided.

import { staleBody } from '@screen-service/push';
import type { ConnectionPrincipal } from '@screen-service/registry/hosts';
import type { PushNoticeRecord } from '@screen-service/registry/model';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let core: TestCore;
let principal: ConnectionPrincipal;
let userId: string;

beforeEach(async () => {
  core = createTestCore({ seed: 41 });
  userId = (await seedUser(core.store)).id;
  const { token } = await seedConnection(core.store, userId, ['cook']);
  principal = await core.connectionAuth.verify(token);
  for (const device of ['phone', 'laptop']) {
    await core.store.push.saveSubscription({
      id: `psub_${device}`,
      userId,
      endpoint: `https://push.example/${device}`,
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      device,
      createdAt: core.clock(),
    });
  }
});
afterEach(() => core.close());

/** Shows `lines` with a 10-minute deadline and records the ask's notification on both devices. */
async function shownOnBothDevices(lines: string, deadline: Record<string, unknown>) {
  const shown = await core.threadOps.show(principal, { lines, deadline: { in: '10m', ...deadline } });
  const at = core.clock();
  const notice = (device: string): PushNoticeRecord => ({
    id: `pn_${device}`,
    userId,
    agentId: shown.agent.id,
    subscriptionId: `psub_${device}`,
    messageId: shown.message_id,
    screenId: shown.screen_id,
    tokenHash: `hash-${device}`,
    tapId: 'lunch',
    choices: ['Soup', 'Salad'],
    createdAt: at,
    expiresAt: at + 600_000,
    usedAt: null,
    closedAt: null,
  });
  await core.store.push.saveNotice(notice('phone'));
  await core.store.push.saveNotice(notice('laptop'));
  return shown;
}

async function staleAt(at: number) {
  const due = await core.store.push.due(at, 50);
  const stale = due.filter((d) => d.row.kind === 'stale');
  const bodies = await Promise.all(
    stale.map(async (d) => staleBody((await core.store.threads.getMessage(d.row.messageId ?? ''))!)),
  );
  return { devices: stale.map((d) => d.subscription.device).sort(), bodies };
}

describe('a deadline that decides', () => {
  it("closes the answer tokens and replaces every device's notification with the default chosen", async () => {
    await shownOnBothDevices('choose@lunch "Lunch?" Soup|Salad', { default: { lunch: 'Soup' } });
    core.advance(600_000);
    expect(await core.deadlines.sweep()).toHaveLength(1);
    const { devices, bodies } = await staleAt(core.clock());
    expect(devices).toEqual(['laptop', 'phone']);
    expect(bodies).toEqual(['Chosen by default: Soup', 'Chosen by default: Soup']);
    // The tokens are closed: a notification action after the deadline cannot answer.
    expect(await core.store.push.findNotice('hash-phone')).toMatchObject({ closedAt: core.clock() });
    expect(await core.store.push.useNotice('pn_phone', core.clock())).toBe(false);
  });

  it('says the ask expired when it had no default', async () => {
    await shownOnBothDevices('choose@lunch "Lunch?" Soup|Salad', {});
    core.advance(600_000);
    await core.deadlines.sweep();
    const { bodies } = await staleAt(core.clock());
    expect(bodies).toEqual(['Expired: nobody answered in time', 'Expired: nobody answered in time']);
  });
});
