// Small seeders for the PostgreSQL tests (any Store): a user and an agent with fresh ids.
import { addAgent } from '@screen-service/registry/agents';
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

// The registry's rule decides the default and the order, as the service does.
export const seedAgent = (s: Store, userId: string, handle = 'a') =>
  addAgent(s, {
    id: newId('agt_'),
    userId,
    name: handle,
    handle,
    color: 'mint',
    kind: 'mcp',
    createdAt: Date.now(),
  });
