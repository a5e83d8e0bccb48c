// Conformance cases: what an agent carries (patch, commands, card, sandbox verdict), connectors, management
// tokens, native agents' settings and the wrong-code records.
import { hashSecret, newId } from '@screen-service/registry/kernel';
import { expect } from 'vitest';
import { type ConformanceCase, conformanceCase as c } from './cases.js';
import { fixtures, outcome } from './fixtures.js';

export const registryCases: ConformanceCase[] = [
  c(
    ['agents.update', 'agents.setCommands', 'agents.setCard', 'agents.setSandbox'],
    'a patch changes only what it names (a taken handle refused); commands, card and sandbox verdict are kept',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      await f.agent(u.id, 'b');
      const theme = { accent: '#123456' };
      expect(
        await store.agents.update(
          a.id,
          { name: 'Alpha', color: 'butter', theme, pushMuted: true, sort: 4 },
          5,
        ),
      ).toMatchObject({
        name: 'Alpha',
        handle: 'a',
        color: 'butter',
        theme,
        pushMuted: true,
        sort: 4,
        updatedAt: 5,
      });
      expect(await store.agents.update(a.id, {}, 6)).toMatchObject({ name: 'Alpha', updatedAt: 5 });
      expect(await outcome(store.agents.update(a.id, { handle: 'b' }, 7))).toBe('HANDLE_TAKEN');
      expect(await store.agents.update(a.id, { avatar: 'svc', handle: 'alpha' }, 8)).toMatchObject({
        avatar: 'svc',
        handle: 'alpha',
      });
      expect(await store.agents.update('agt_missing', { name: 'x' }, 9)).toBeNull();
      const commands = [{ name: 'plan', description: 'Plans the day', args: '<day>' }];
      expect(await store.agents.setCommands(a.id, commands, 10)).toBe(true);
      expect(await store.agents.get(a.id)).toMatchObject({ commands, commandsAt: 10 });
      expect(await store.agents.setCommands(a.id, null, 11)).toBe(true);
      expect(await store.agents.get(a.id)).toMatchObject({ commands: null, commandsAt: 11 });
      expect(await store.agents.setCommands('agt_missing', [], 11)).toBe(false);
      const card = { name: 'Alpha bot', skills: [{ name: 'plan', description: 'Plans' }] };
      expect(await store.agents.setCard(a.id, card, 12)).toBe(true);
      expect((await store.agents.get(a.id))?.card).toEqual(card);
      expect(await store.agents.setCard(a.id, null, 13)).toBe(true);
      expect((await store.agents.get(a.id))?.card).toBeNull();
      expect(await store.agents.setCard('agt_missing', card, 13)).toBe(false);
      await store.agents.setSandbox(a.id, {
        sandbox: { terminal: 'off' },
        clientSafe: true,
        clientSafeAt: 14,
      });
      expect(await store.agents.get(a.id)).toMatchObject({
        sandbox: { terminal: 'off' },
        clientSafe: true,
        clientSafeAt: 14,
      });
      await store.agents.setSandbox(a.id, { sandbox: null, clientSafe: false, clientSafeAt: null });
      expect(await store.agents.get(a.id)).toMatchObject({
        sandbox: null,
        clientSafe: false,
        clientSafeAt: null,
      });
    },
  ),
  c(
    [
      'connectors.create',
      'connectors.findByTokenHash',
      'connectors.listByUser',
      'connectors.touch',
      'connectors.listSeenSince',
      'connectors.delete',
    ],
    'connectors are found by token hash and listed per user; seen times are kept; delete leaves their agents',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const one = await f.connector(u.id, { createdAt: 1 });
      const two = await f.connector(u.id, { createdAt: 2, via: 'oauth', kind: 'hostfw' });
      expect(await store.connectors.findByTokenHash(one.tokenHash)).toEqual({ ...one, via: 'pairing' });
      expect(await store.connectors.findByTokenHash(hashSecret('nope'))).toBeNull();
      expect((await store.connectors.listByUser(u.id)).map((x) => [x.id, x.via, x.kind])).toEqual([
        [one.id, 'pairing', 'mcp'],
        [two.id, 'oauth', 'hostfw'],
      ]);
      await store.connectors.touch(one.id, 100);
      await store.connectors.touch(two.id, 50);
      expect((await store.connectors.get(one.id))?.lastSeenAt).toBe(100);
      expect((await store.connectors.listSeenSince(60)).map((x) => x.id)).toEqual([one.id]);
      expect((await store.connectors.listSeenSince(50)).map((x) => x.id)).toEqual([two.id, one.id]);
      await store.connectors.revoke(one.id, 120);
      expect((await store.connectors.listSeenSince(0)).map((x) => x.id)).toEqual([two.id]);
      const a = await f.agent(u.id, 'a', { connectorId: two.id, remoteRef: 'r' });
      expect(await store.connectors.delete(two.id)).toBe(true);
      expect(await store.connectors.delete(two.id)).toBe(false);
      expect(await store.agents.get(a.id)).toMatchObject({ id: a.id, connectorId: null });
    },
  ),
  c(
    [
      'managementTokens.create',
      'managementTokens.findByHash',
      'managementTokens.listByUser',
      'managementTokens.touch',
      'managementTokens.revoke',
    ],
    'management tokens: found by hash, newest first, used times kept, revoked once and only by their owner',
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const v = await f.user();
      const token = (name: string, createdAt: number) => ({
        id: newId('mt_'),
        userId: u.id,
        name,
        tokenHash: hashSecret(newId()),
        scope: 'agents:manage' as const,
        createdAt,
        lastUsedAt: null,
        revokedAt: null,
      });
      const older = await store.managementTokens.create(token('laptop', 1));
      const newer = await store.managementTokens.create(token('phone', 2));
      expect(await store.managementTokens.findByHash(older.tokenHash)).toEqual(older);
      expect(await store.managementTokens.findByHash(hashSecret('nope'))).toBeNull();
      expect((await store.managementTokens.listByUser(u.id)).map((t) => t.name)).toEqual(['phone', 'laptop']);
      await store.managementTokens.touch(older.id, 9);
      expect((await store.managementTokens.findByHash(older.tokenHash))?.lastUsedAt).toBe(9);
      expect(await store.managementTokens.revoke(v.id, newer.id, 10)).toBe(false);
      expect(await store.managementTokens.revoke(u.id, newer.id, 11)).toBe(true);
      expect(await store.managementTokens.revoke(u.id, newer.id, 12)).toBe(false);
      expect((await store.managementTokens.findByHash(newer.tokenHash))?.revokedAt).toBe(11);
    },
  ),
  c(
    ['nativeAgents.save', 'nativeAgents.get', 'nativeAgents.setInstructions', 'nativeAgents.listWithPending'],
    "native agents' settings are saved whole, their instructions changed, and those owing an answer listed",
    async (store) => {
      const f = fixtures(store);
      const u = await f.user();
      const a = await f.agent(u.id, 'a');
      const b = await f.agent(u.id, 'b');
      const row = {
        agentId: a.id,
        userId: u.id,
        template: 'coach',
        instructions: 'Be kind.',
        createdAt: 1,
        updatedAt: 1,
      };
      expect(await store.nativeAgents.save(row)).toEqual(row);
      expect(
        await store.nativeAgents.save({ ...row, template: null, instructions: 'Be brief.', updatedAt: 2 }),
      ).toEqual({
        ...row,
        template: null,
        instructions: 'Be brief.',
        updatedAt: 2,
      });
      expect(await store.nativeAgents.setInstructions(a.id, 'Be clear.', 3)).toMatchObject({
        instructions: 'Be clear.',
        updatedAt: 3,
      });
      expect(await store.nativeAgents.setInstructions(b.id, 'x', 3)).toBeNull();
      expect(await store.nativeAgents.get(b.id)).toBeNull();
      expect(await store.nativeAgents.listWithPending()).toEqual([]);
      await store.threads.append(f.message({ agentId: a.id, userId: u.id }, 'agent', 'hi'), f.version());
      expect(await store.nativeAgents.listWithPending()).toEqual([]);
      const p = await store.threads.append(
        f.message({ agentId: a.id, userId: u.id }, 'person', 'q'),
        f.version(),
      );
      // A person's row on a plain agent is not a native agent's debt.
      await store.threads.append(f.message({ agentId: b.id, userId: u.id }, 'person', 'q'), f.version());
      expect(await store.nativeAgents.listWithPending()).toEqual([{ agentId: a.id, userId: u.id }]);
      await store.threads.markRowsHandled({ agentId: a.id, userId: u.id }, [p.id], 4, f.version());
      expect(await store.nativeAgents.listWithPending()).toEqual([]);
    },
  ),
  c(
    ['pairing.recordFailure', 'pairing.countFailures'],
    'wrong codes are counted per address within a window; older records are dropped',
    async (store) => {
      await store.pairing.recordFailure('203.0.113.9', 10, 0);
      await store.pairing.recordFailure('203.0.113.9', 20, 0);
      await store.pairing.recordFailure('198.51.100.1', 20, 0);
      expect(await store.pairing.countFailures('203.0.113.9', 0)).toBe(2);
      expect(await store.pairing.countFailures('203.0.113.9', 15)).toBe(1);
      expect(await store.pairing.countFailures('192.0.2.1', 0)).toBe(0);
      // A record older than the prune bound goes with the next failure.
      await store.pairing.recordFailure('198.51.100.1', 30, 15);
      expect(await store.pairing.countFailures('203.0.113.9', 0)).toBe(1);
      expect(await store.pairing.countFailures('198.51.100.1', 0)).toBe(2);
    },
  ),
];
