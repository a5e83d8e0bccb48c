// Conformance cases: a guarded claim of answers (ADR 0298) claims only while its connection is live, as the
// rules' `connectionState` judges it; the store's SQL gate and that function are pinned together here.
import { connectionState } from '@screen-service/registry/hosts';
import { ClaimRefused, type Store } from '@screen-service/registry/model';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures } from './fixtures.js';

/**
 * What a guarded claim (or, with `act` 'read', a guarded read) ended with: the refusal judged by
 * `connectionState`, or the bodies it returned. A refusal must name the statement refused.
 */
export async function outcomeOf(
  claim: Promise<{ body: string }[]>,
  act: 'claim' | 'read' = 'claim',
): Promise<string> {
  try {
    return `${act === 'claim' ? 'claimed' : 'read'} ${(await claim).map((m) => m.body).join(',')}`;
  } catch (err) {
    if (!(err instanceof ClaimRefused)) throw err;
    expect(err.act).toBe(act);
    return `refused ${connectionState(err.connector, err.account)}`;
  }
}

/**
 * One connector of `userId` in each state that is not live (a suspended account's is made with its own
 * account): what a guarded claim or read must refuse, by the state it must be refused as.
 */
export async function notLiveConnectors(f: ReturnType<typeof fixtures>, userId: string) {
  const suspendedAccount = await f.user({ suspendedAt: 3 });
  return {
    missing: 'con_gone',
    revoked: (await f.connector(userId, { revokedAt: 2 })).id,
    suspended: (await f.connector(userId, { suspendedAt: 2 })).id,
    account_suspended: (await f.connector(suspendedAccount.id)).id,
  };
}

/** The state `connectionState` gives the connector now, from the store's own reads of it and its account. */
export async function stateOf(store: Store, connectorId: string): Promise<string> {
  const k = await store.connectors.get(connectorId);
  return connectionState(k, k ? await store.users.findById(k.userId) : null);
}

export const claimGuardCases: ConformanceCase[] = [
  c(
    ['threads.claimAnswers', 'threads.countUnhandled', 'connectors.revoke', 'connectors.delete'],
    'claimAnswers with a guard claims only while its connection is live, as connectionState judges it',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const live = await f.connector(u.id);
      const notLive = await notLiveConnectors(f, u.id);
      const claim = (connectorId?: string) =>
        store.threads.claimAnswers({
          ...key,
          afterSeq: 0,
          limit: 5,
          at: 5,
          version: f.version(),
          ...(connectorId ? { guard: { connectorId } } : {}),
        });
      const say = (body: string) => store.threads.append(f.message(key, 'person', body), f.version());
      await store.threads.markRead(key, 0, f.version());
      await say('p1');
      const version = (await store.threads.getState(key)).pageVersion;
      // Each connection the rule does not call live claims nothing: the row stays, the page stays.
      for (const [state, id] of Object.entries(notLive)) {
        expect(await stateOf(store, id), 'the fixture is in the state it is named for').toBe(state);
        expect(await outcomeOf(claim(id))).toBe(`refused ${state}`);
      }
      expect(await store.threads.countUnhandled(key)).toBe(1);
      expect((await store.threads.getState(key)).pageVersion).toBe(version);
      // The live one takes it; with nothing left it gets none and is not refused.
      expect(await stateOf(store, live.id)).toBe('live');
      expect(await outcomeOf(claim(live.id))).toBe('claimed p1');
      expect(await outcomeOf(claim(live.id))).toBe('claimed ');
      // Removed now: refused from then on (revoked, then deleted); an unguarded claim takes rows as before.
      await say('p2');
      await store.connectors.revoke(live.id, 9);
      expect(await outcomeOf(claim(live.id))).toBe('refused revoked');
      expect(await store.connectors.delete(live.id)).toBe(true);
      expect(await outcomeOf(claim(live.id))).toBe('refused missing');
      expect(await outcomeOf(claim())).toBe('claimed p2');
      expect(await store.threads.countUnhandled(key)).toBe(0);
    },
  ),
  c(
    ['threads.claimAnswers', 'transaction'],
    'a guarded claim refused inside a transaction fails it, and the row stays for a live connection',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const key = { agentId: a.id, userId: u.id };
      const removed = await f.connector(u.id, { revokedAt: 2 });
      const next = await f.connector(u.id);
      await store.threads.append(f.message(key, 'person', 'p1'), f.version());
      const claimIn = (connectorId: string) =>
        store.transaction((tx) =>
          tx.threads.claimAnswers({
            ...key,
            afterSeq: 0,
            limit: 5,
            at: 5,
            version: f.version(),
            guard: { connectorId },
          }),
        );
      expect(await outcomeOf(claimIn(removed.id))).toBe('refused revoked');
      expect(await store.threads.countUnhandled(key)).toBe(1);
      expect(await outcomeOf(claimIn(next.id))).toBe('claimed p1');
    },
  ),
];
