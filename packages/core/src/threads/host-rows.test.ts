// A connection's rows picked from the served agents this process last read (ADR 0291): the row's own write
// checks the agent is still served, so a change no event told this process of never lets a row through.
import { type ConnectionPrincipal, createConnectionAuth } from '@screen-service/registry/hosts';
import { createNotifier, type Notifier, ServiceError } from '@screen-service/registry/kernel';
import { createTestStore, seedConnection, seedUser, type TestStore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThreadOps, type ThreadOps } from './thread-ops.js';

let h: TestStore;
let notifier: Notifier;
let ops: ThreadOps;
let principal: ConnectionPrincipal;
let userId: string;
let coach: string;
let cook: string;
let elsewhere: string;

beforeEach(async () => {
  h = createTestStore();
  notifier = createNotifier();
  ops = createThreadOps({ store: h.store, notifier });
  const user = await seedUser(h.store);
  userId = user.id;
  const { token, agents } = await seedConnection(h.store, user.id, ['coach', 'cook']);
  [coach, cook] = agents.map((a) => a.id) as [string, string];
  elsewhere = (await seedConnection(h.store, user.id, [])).connector.id;
  principal = await createConnectionAuth({ store: h.store }).verify(token);
});
afterEach(() => h.close());

/** Moves an agent to another connection as a second instance would: in the store, with no event here. */
const moveQuietly = (agentId: string, connectorId: string) =>
  h.store.agents.bind(agentId, { connectorId, remoteRef: agentId, kind: 'mcp' }, Date.now());
const rowsOf = async (agentId: string) =>
  (await h.store.threads.page({ agentId, userId, limit: 50 })).map((m) => m.body);

describe('rows picked from the kept served agents', () => {
  it('never lands in an agent the connection stopped serving, though no event said so', async () => {
    expect((await ops.show(principal, { lines: 'confirm@a "First?"' })).agent.handle).toBe('coach');
    await moveQuietly(coach, elsewhere);
    // The kept list still names coach first: the write refuses it, the call reads afresh and lands in cook.
    const shown = await ops.show(principal, { lines: 'confirm@b "Second?"' });
    expect(shown.agent.handle).toBe('cook');
    expect(await rowsOf(coach)).toEqual(['confirm@a "First?"']);
    expect(await rowsOf(cook)).toEqual(['confirm@b "Second?"']);
    // Asked for by name, coach is no longer this connection's: refused, and nothing is written.
    const said = ops.say(principal, { text: 'hello', agent: 'coach' });
    await expect(said).rejects.toBeInstanceOf(ServiceError);
    await expect(said).rejects.toMatchObject({ code: 'AGENT_NOT_FOUND' });
    expect(await rowsOf(coach)).toEqual(['confirm@a "First?"']);
  });

  it('reads the served agents again after an agents event', async () => {
    await moveQuietly(coach, elsewhere);
    expect((await ops.say(principal, { text: 'one' })).agent.handle).toBe('cook');
    // Coach comes back (the default again); until an event says so, this process still writes to cook.
    await moveQuietly(coach, principal.connectorId);
    expect((await ops.say(principal, { text: 'two' })).agent.handle).toBe('cook');
    notifier.publish({ type: 'agents', userId });
    expect((await ops.say(principal, { text: 'three' })).agent.handle).toBe('coach');
    notifier.publish({ type: 'resync', userId: '*' });
    expect((await ops.say(principal, { text: 'four', agent: 'cook' })).agent.handle).toBe('cook');
  });
});
