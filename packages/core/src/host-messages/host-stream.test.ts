// A host stream closed while it handles an `agents` event (a grant, a rename, a removal check) leaves no
// subscription behind: the event's reads finish after close, and following the holders then must not
// subscribe again (a listener held for the life of the process, found by connect-api's transport test). A
// connection removed between its check and a read of what it is owed sees nothing written after (ADR 0301).

import { ServiceError } from '@screen-service/registry/kernel';
import { createTestCore, seedConnection, type TestCore } from '@screen-service/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let core: TestCore;
beforeEach(() => {
  core = createTestCore({ clockMode: 'running' });
});
afterEach(() => core.close());

const signUp = async () =>
  (await core.accounts.signUp({ email: 'ada@example.com', password: 'a long password' })).user.id;

describe('host stream', () => {
  it('removed right before a live read, ends refused and sends nothing (ADR 0301)', async () => {
    const userId = await signUp();
    const c = await seedConnection(core.store, userId, ['main'], 'hostfw');
    const agentId = c.agents[0]!.id;
    const host = await core.hostAuth.verify(c.token);
    // The first thing the stream does after opening, sending a row or ending, is its outcome.
    const sent: string[] = [];
    let outcome!: (what: string) => void;
    const first = new Promise<string>((r) => (outcome = r));
    const close = await core.hostTransport.open(host, {
      send: (m) => {
        sent.push(m.text ?? '');
        outcome(`sent ${m.text}`);
      },
      end: (reason) => outcome(`ended ${reason}`),
    });
    // Right before the read the person's row wakes (the stream is live): the person removes the connection in
    // the app (no `agents` event reaches this stream) and writes again.
    const threads = core.store.threads;
    const pending = threads.pendingForHost;
    let raced = false;
    threads.pendingForHost = async (...args) => {
      threads.pendingForHost = pending;
      await core.store.connectors.revoke(c.connector.id, Date.now());
      await core.threads.say(userId, agentId, { text: 'sent after the removal' });
      raced = true;
      return pending.apply(threads, args);
    };
    await core.threads.say(userId, agentId, { text: 'hello' });
    expect(await first).toBe('ended revoked');
    expect(raced).toBe(true);
    expect(sent).toEqual([]);
    close();
  });

  it('removed between its sign-in check and its replay, opens refused and sends nothing (ADR 0301)', async () => {
    const userId = await signUp();
    const c = await seedConnection(core.store, userId, ['main'], 'hostfw');
    const host = await core.hostAuth.verify(c.token);
    await core.store.connectors.revoke(c.connector.id, Date.now());
    await core.threads.say(userId, c.agents[0]!.id, { text: 'sent after the removal' });
    const sent: string[] = [];
    const opened = core.hostTransport.open(host, { send: (m) => sent.push(m.text ?? ''), end: () => {} });
    const err = await opened.then(
      (close) => {
        close();
        return null;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('CONNECTOR_REVOKED');
    expect(sent).toEqual([]);
  });

  it('closed while an `agents` event is read, subscribes to nothing afterwards', async () => {
    const userId = await signUp();
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
