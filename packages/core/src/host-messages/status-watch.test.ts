import { CONNECTED_WINDOW_MS } from '@screen-service/registry/agents';
import type { ThreadEvent } from '@screen-service/registry/kernel';
import { createTestCore, seedConnection, seedUser, type TestCore } from '@screen-service/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createStatusWatch } from './status-watch.js';

let core: TestCore;
afterEach(() => core?.close());

describe('createStatusWatch', () => {
  it('publishes `agents` when a host comes back and when it goes silent, once each', async () => {
    core = createTestCore({ clockStart: 1_000_000 });
    const user = await seedUser(core.store, { at: 1 });
    const events: ThreadEvent[] = [];
    core.notifier.subscribe(user.id, (e) => events.push(e));
    const { token } = await seedConnection(core.store, user.id, ['desk'], 'hostfw');
    const p = await core.hostAuth.verify(token);
    await core.hosts.heartbeat(p, {});
    expect(events.filter((e) => e.type === 'agents')).toHaveLength(1);
    await core.hosts.heartbeat(p, {});
    core.advance(CONNECTED_WINDOW_MS);
    await core.statusWatch.sweep();
    expect(events.filter((e) => e.type === 'agents')).toHaveLength(1);
    core.advance(1);
    await core.statusWatch.sweep();
    await core.statusWatch.sweep();
    expect(events.filter((e) => e.type === 'agents')).toHaveLength(2);
    expect(core.statusWatch.size()).toBe(0);
    await core.hosts.heartbeat(p, {});
    expect(events.filter((e) => e.type === 'agents')).toHaveLength(3);
  });

  it('picks up a connection seen without telling it (a pairing, another process) at the next sweep', async () => {
    core = createTestCore({ clockStart: 5_000_000 });
    const user = await seedUser(core.store, { at: 1 });
    await core.statusWatch.sweep();
    const events: ThreadEvent[] = [];
    core.notifier.subscribe(user.id, (e) => events.push(e));
    const { connector } = await seedConnection(core.store, user.id, ['desk'], 'hostfw');
    await core.store.connectors.touch(connector.id, core.clock());
    core.advance(10);
    await core.statusWatch.sweep();
    expect(events.map((e) => e.type)).toEqual(['agents']);
    expect(core.statusWatch.size()).toBe(1);
  });
});

describe('createStatusWatch, sweeps that overlap (the timer and a caller, a slow database)', () => {
  it('a sweep asked for while another runs waits for it and then sweeps, instead of returning having swept nothing', async () => {
    core = createTestCore({ clockStart: 9_000_000 });
    const user = await seedUser(core.store, { at: 1 });
    const connectors = core.store.connectors;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The first sweep reads before the connection is seen and is slow to finish.
    const slow = {
      ...connectors,
      listSeenSince: async (since: number) => {
        const rows = await connectors.listSeenSince(since);
        await gate;
        return rows;
      },
    };
    const watch = createStatusWatch({
      store: { connectors: slow },
      notifier: core.notifier,
      now: core.clock,
    });
    const events: ThreadEvent[] = [];
    core.notifier.subscribe(user.id, (e) => events.push(e));
    const first = watch.sweep();
    const { connector } = await seedConnection(core.store, user.id, ['desk'], 'hostfw');
    await connectors.touch(connector.id, core.clock());
    const second = watch.sweep();
    release();
    await Promise.all([first, second]);
    expect(events.map((e) => e.type)).toEqual(['agents']);
    expect(watch.size()).toBe(1);
  });
});

describe('createStatusWatch, a connection seen and lapsed between two sweeps', () => {
  it('still publishes `agents` (an open app may have drawn it Connected in the gap)', async () => {
    core = createTestCore({ clockStart: 7_000_000 });
    const user = await seedUser(core.store, { at: 1 });
    await core.statusWatch.sweep();
    const events: ThreadEvent[] = [];
    core.notifier.subscribe(user.id, (e) => events.push(e));
    const { connector } = await seedConnection(core.store, user.id, ['desk'], 'hostfw');
    await core.store.connectors.touch(connector.id, core.clock());
    core.advance(CONNECTED_WINDOW_MS + 1);
    await core.statusWatch.sweep();
    expect(events.map((e) => e.type)).toEqual(['agents']);
    expect(core.statusWatch.size()).toBe(0);
    await core.statusWatch.sweep();
    expect(events.map((e) => e.type)).toEqual(['agents']);
  });
});
