// The person's table controls: list relay tables, give one to an agent (svc_tables_give), take away, delete.
import { defineRoute } from '../route.js';
import * as t from '../tables-schemas.js';

export const tableRoutes = [
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/tables',
    summary: "This device's copy of an agent's tables: digests, and the rows of tables whose copy is stale",
    auth: 'user',
    body: t.replicaBody,
    response: t.replicaAnswer,
    handler: ({ services, user, params, body }) => services.tables.replica(user.userId, params.agentId, body),
  }),
  defineRoute({
    method: 'get',
    path: '/tables',
    summary: "List the person's relay tables with row counts, holder and last read",
    auth: 'user',
    response: t.relayTableList,
    handler: async ({ services, user }) => ({ tables: await services.tables.list(user.userId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/tables/give',
    summary: 'Give a table to another agent (svc_tables_give); its next turn opens with a tables line',
    auth: 'user',
    body: t.giveTableBody,
    response: t.givenTable,
    handler: ({ services, user, body }) => services.tables.give(user.userId, body),
  }),
  defineRoute({
    method: 'post',
    path: '/tables/take',
    summary: 'Take a table away from its agent: unheld, deleted after 30 days unless given again',
    auth: 'user',
    body: t.tableRefBody,
    handler: async ({ services, user, body }) => {
      await services.tables.takeAway(user.userId, body);
      return undefined;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/tables/delete',
    summary: 'Delete a table and its rows (the person decides; no card)',
    auth: 'user',
    body: t.tableRefBody,
    handler: async ({ services, user, body }) => {
      await services.tables.remove(user.userId, body);
      return undefined;
    },
  }),
];
