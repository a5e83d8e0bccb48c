// Shared agents on the person's API (doc2): the invite claim page, and the owner's invites and grants with revoke.
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
    method: 'post',
    path: '/shares/invites',
    summary:
      "Make an approved invite link for one of this person's client-safe agents (the app's Share section)",
    auth: 'user',
    body: s.createInviteBody,
    response: s.inviteCreated,
    // The rules of `svc share send`: safety re-checked, a one-off template saved, the invite approved.
    handler: async ({ services, user, body }) => {
      const sent = await services.shares.send(user.userId, {
        agents: body.agent_id,
        ...(body.first_name ? { first_name: body.first_name } : {}),
        ...(body.first_message ? { [`hello_${body.agent_id}`]: body.first_message } : {}),
      });
      return { invite_id: sent.invite_id, link: sent.link, template: sent.template };
    },
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
