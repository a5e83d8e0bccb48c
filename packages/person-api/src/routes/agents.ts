// Agents: list, create with a pairing code, reorder, read, edit, delete, mint a new code.
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';
import { deleteAgentQuery } from '../tables-schemas.js';

export const agentRoutes = [
  defineRoute({
    method: 'get',
    path: '/agents',
    summary: 'List agents with derived status, unread counts and colours',
    auth: 'user',
    response: s.agentList,
    handler: async ({ services, user }) => ({ agents: await services.agents.list(user.userId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/agents',
    summary: 'Create an agent and its 6-digit pairing code',
    auth: 'user',
    body: s.createAgentBody,
    response: s.createdAgent,
    status: 201,
    handler: ({ services, user, body }) => services.agents.create(user.userId, body),
  }),
  defineRoute({
    method: 'put',
    path: '/agents/order',
    summary: 'Reorder agents (list every agent id once)',
    auth: 'user',
    body: s.reorderBody,
    response: s.agentList,
    handler: async ({ services, user, body }) => ({
      agents: await services.agents.reorder(user.userId, body.ids),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/:agentId',
    summary: 'One agent',
    auth: 'user',
    response: s.agentView,
    handler: ({ services, user, params }) => services.agents.get(user.userId, params.agentId),
  }),
  defineRoute({
    method: 'patch',
    path: '/agents/:agentId',
    summary: 'Rename, recolor, restyle, mute, move or make default',
    auth: 'user',
    body: s.updateAgentBody,
    response: s.agentView,
    handler: ({ services, user, params, body }) => services.agents.update(user.userId, params.agentId, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/agents/:agentId',
    summary:
      'Delete an agent, its thread and its photos (the default passes to the first remaining agent); its tables go too unless keep_tables=true',
    auth: 'user',
    query: deleteAgentQuery,
    handler: async ({ services, user, params, query }) => {
      await services.agents.delete(user.userId, params.agentId, { keepTables: query.keep_tables === 'true' });
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/code',
    summary: 'Mint a new pairing code (the unused ones stop working)',
    auth: 'user',
    response: s.mintedCode,
    status: 201,
    handler: ({ services, user, params }) => services.agents.mintCode(user.userId, params.agentId),
  }),
];
