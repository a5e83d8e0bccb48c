// Connections (paired computers and signed-in apps) and the OAuth sign-ins waiting for the person.
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';

export const connectionRoutes = [
  defineRoute({
    method: 'get',
    path: '/connections',
    summary: 'Paired computers and tool connections',
    auth: 'user',
    response: s.connectionList,
    handler: async ({ services, user }) => ({ connections: await services.agents.connections(user.userId) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/connections/:connectorId',
    summary: 'Remove a connection: its tokens stop at once',
    auth: 'user',
    handler: async ({ services, user, params }) => {
      await services.agents.removeConnection(user.userId, params.connectorId);
      return undefined;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/oauth/requests/:requestId',
    summary: 'An app asking to sign in: its name, where it returns to, and the state of the request',
    auth: 'user',
    response: s.oauthRequestView,
    handler: ({ services, user, params }) => services.oauth.personView(user.userId, params.requestId),
  }),
  defineRoute({
    method: 'post',
    path: '/oauth/requests/:requestId/decision',
    summary: 'Allow (as a new or an existing agent) or deny an app asking to sign in',
    auth: 'user',
    body: s.oauthDecisionBody,
    response: s.oauthRequestView,
    handler: ({ services, user, params, body }) => services.oauth.decide(user.userId, params.requestId, body),
  }),
];
