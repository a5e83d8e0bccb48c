// Small seeders for the PostgreSQL tests (any Store): a user and an agent with fresh ids.
import { newId } from '@screen-service/registry/kernel';
import type { Store } from '@screen-service/registry/model';

export const seedUser = (s: Store) =>
  s.users.create({
    id: newId('usr_'),
    email: `${newId()}@example.com`.toLowerCase(),
    passwordHash: 'x',
    firstName: null,
    createdAt: Date.now(),
    suspendedAt: null,
  });

export const seedAgent = (s: Store, userId: string, handle = 'a') =>
  s.agents.create({
    id: newId('agt_'),
    userId,
    name: handle,
    handle,
    color: 'mint',
    kind: 'mcp',
    createdAt: Date.now(),
  });
