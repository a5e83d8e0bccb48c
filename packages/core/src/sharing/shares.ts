// Shared agents (doc2 "Shared-agent resources", "Grant", "Client-safe"): the owner's templates, invites and
// grants, the holder's claim, and revoke. The client-safe rule is checked in each write's transaction
// (share-writes.ts), so the refusal names the broken rule and no write can skip it.
import { shareWhy } from '@screen-service/registry/hosts';
import { ServiceError } from '@screen-service/registry/kernel';
import { createShareContext, givenView, ownedAgent, templateName, templateView } from './share-context.js';
import { grantTo, revokeGrant } from './share-grants.js';
import { claimInvite, createInvite, previewInvite, saveTemplate, templateByName } from './share-invites.js';
import { planInvite, sendInvite } from './share-plan.js';
import type { Shares, SharesOptions } from './share-types.js';

export type {
  ClaimResult,
  GivenGrantView,
  GrantInput,
  InviteCreated,
  InvitePlan,
  InvitePreview,
  RevokedGrantView,
  Shares,
  SharesOptions,
  TemplateInput,
  TemplateItemInput,
  TemplateView,
} from './share-types.js';
export { INVITE_TTL_MS } from './share-types.js';

/**
 * @example
 * ```ts
 * const shares = createShares({ store, notifier, push, inviteLink: (t) => `${base}/#/invite/${t}` });
 * const { link } = await shares.send(ownerId, await shares.plan(ownerId));
 * ```
 */
export function createShares(options: SharesOptions): Shares {
  const ctx = createShareContext(options);
  const { store } = ctx;
  return {
    async safe(ownerId, ref) {
      const a = await ownedAgent(store, ownerId, ref);
      return {
        agent: { id: a.id, handle: a.handle, name: a.name },
        client_safe: a.clientSafe,
        share_why: shareWhy(a),
      };
    },
    saveTemplate: async (ownerId, input) => templateView(store, await saveTemplate(ctx, ownerId, input)),
    listTemplates: async (ownerId) =>
      Promise.all((await store.shares.listTemplates(ownerId)).map((t) => templateView(store, t))),
    showTemplate: async (ownerId, name) => templateView(store, await templateByName(ctx, ownerId, name)),
    deleteTemplate: async (ownerId, name) => ({
      deleted: await store.shares.deleteTemplate(ownerId, templateName(name)),
    }),
    createInvite: (ownerId, input) => createInvite(ctx, ownerId, input),
    async approveInvite(ownerId, inviteId) {
      const ok = await store.shares.approveInvite(ownerId, inviteId, ctx.now());
      if (!ok)
        throw new ServiceError('NOT_FOUND', `No unapproved invite ${inviteId}.`, { field: 'invite_id' });
      return { approved: true };
    },
    previewInvite: (token) => previewInvite(ctx, token),
    claim: (userId, token) => claimInvite(ctx, userId, token),
    grant: (ownerId, input) => grantTo(ctx, ownerId, input),
    revoke: (ownerId, input) => revokeGrant(ctx, ownerId, input),
    given: async (ownerId) =>
      Promise.all((await store.shares.listGiven(ownerId)).map((g) => givenView(store, g))),
    plan: (ownerId) => planInvite(ctx, ownerId),
    send: (ownerId, answers) => sendInvite(ctx, ownerId, answers),
  };
}
