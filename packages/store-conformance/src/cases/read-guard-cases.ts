// Conformance cases: a guarded read of what a connection is owed (`pendingForHost`, ADR 0301) reads only while
// its connection is live, as the rules' `connectionState` judges it, with the same gate as the guarded claim.
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { notLiveConnectors, outcomeOf, stateOf } from './claim-guard-cases.js';
import { fixtures } from './fixtures.js';

export const readGuardCases: ConformanceCase[] = [
  c(
    ['threads.pendingForHost', 'connectors.revoke', 'connectors.delete'],
    'pendingForHost with a guard reads only while its connection is live, as connectionState judges it',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const live = await f.connector(u.id);
      const notLive = await notLiveConnectors(f, u.id);
      const read = (connectorId?: string, afterSeq = 0) =>
        outcomeOf(
          store.threads.pendingForHost({
            userId: u.id,
            agentIds: [a.id, b.id],
            afterSeq,
            limit: 5,
            ...(connectorId ? { guard: { connectorId } } : {}),
          }),
          'read',
        );
      const p1 = await store.threads.append(
        f.message({ agentId: a.id, userId: u.id }, 'person', 'p1'),
        f.version(),
      );
      await store.threads.append(f.message({ agentId: b.id, userId: u.id }, 'person', 'p2'), f.version());
      // Each connection the rule does not call live reads nothing and is refused with facts judged the same.
      for (const [state, id] of Object.entries(notLive)) {
        expect(await stateOf(store, id), 'the fixture is in the state it is named for').toBe(state);
        expect(await read(id)).toBe(`refused ${state}`);
      }
      // The live one reads both threads' rows, oldest first; with nothing after its cursor it is not refused.
      expect(await stateOf(store, live.id)).toBe('live');
      expect(await read(live.id)).toBe('read p1,p2');
      expect(await read(live.id, p1.seq)).toBe('read p2');
      expect(await read(live.id, p1.seq + 1_000)).toBe('read ');
      // Removed now: refused from then on (revoked, then deleted); an unguarded read reads as before.
      await store.connectors.revoke(live.id, 9);
      expect(await read(live.id)).toBe('refused revoked');
      expect(await store.connectors.delete(live.id)).toBe(true);
      expect(await read(live.id)).toBe('refused missing');
      expect(await read()).toBe('read p1,p2');
    },
  ),
];
