// A host stream closed while it handles an `agents` event (a grant, a rename, a removal check) leaves no
// subscription behind: the event's reads finish after close, and following the holders then must not
// subscribe again (a listener held for the life of the process, found by connect-api's transport test).

import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let core: TestCore;
beforeEach(() => {
  core = createTestCore({ clockMode: 'running' });
});
afterEach(() => core.close());

describe('host stream', () => {
  it('closed while an `agents` event is read, subscribes to nothing afterwards', async () => {
    const userId = (await core.accounts.signUp({ email: 'ada@example.com', password: 'a long password' }))
      .user.id;
    const c = await seedConnection(core.store, userId, ['main'], 'hostfw');
    const host = await core.hostAuth.verify(c.token);
    const close = await core.hostTransport.open(host, { send: () => {}, end: () => {} });
    expect(core.notifier.listenerCount(userId)).toBe(1);
    // Hold the event's last read until the stream has closed.
    const shares = core.store.shares;
    const real = shares.liveForAgents.bind(shares);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let read!: () => void;
    const reached = new Promise<void>((r) => (read = r));
    shares.liveForAgents = async (ids) => {
      read();
      await gate;
      return real(ids);
    };
    core.notifier.publish({ type: 'agents', userId });
    await reached;
    close();
    expect(core.notifier.listenerCount(userId)).toBe(0);
    release();
    // The event's task runs to its end in the microtasks after the read resolves.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(core.notifier.listenerCount(userId)).toBe(0);
  });
});
