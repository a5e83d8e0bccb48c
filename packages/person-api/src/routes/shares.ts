// Shared agents on the person's API (doc2): the invite claim page, and the owner's grants with revoke.
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';

export const shareRoutes = [
  defineRoute({
    method: 'get',
    path: '/invites/:token',
    summary: 'What an invite link shares (title, who shares, the agents); no sign-in needed',
    auth: 'none',
    response: s.invitePreview,
    handler: ({ services, params }) => services.shares.previewInvite(params.token),
  }),
  defineRoute({
    method: 'post',
    path: '/invites/:token/claim',
    summary: 'Claim an invite: one grant per shared agent that is client-safe now',
    auth: 'user',
    response: s.claimResult,
    handler: ({ services, user, params }) => services.shares.claim(user.userId, params.token),
  }),
  defineRoute({
    method: 'get',
    path: '/shares/given',
    summary: 'The grants this person gave: who holds each of their shared agents (never the threads)',
    auth: 'user',
    response: s.givenGrants,
    handler: async ({ services, user }) => ({ grants: await services.shares.given(user.userId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/shares/revoke',
    summary: "Revoke a grant: the agent leaves the person's list at once and their thread closes",
    auth: 'user',
    body: s.revokeGrantBody,
    response: s.revokedGrant,
    handler: ({ services, user, body }) =>
      services.shares.revoke(user.userId, { agent: body.agent_id, user: body.user_id }),
  }),
];
