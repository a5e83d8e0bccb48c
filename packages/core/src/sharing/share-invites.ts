// Templates and invites (doc2 "Template", Grant transitions): save a template of client-safe agents, make an
// invite of it (only the token's hash is stored), preview it, and claim it: one grant per item safe now.

import * as check from '@screen-service/registry/agents';
import { shareWhy } from '@screen-service/registry/hosts';
import { hashSecret, isServiceError, mintToken, ServiceError } from '@screen-service/registry/kernel';
import type { ShareTemplateRecord } from '@screen-service/registry/model';
import { defaultBy, ownedAgent, type ShareContext, templateName, text } from './share-context.js';
import { insertGrant } from './share-grants.js';
import {
  type ClaimResult,
  INVITE_TTL_MS,
  type InviteCreated,
  type InvitePreview,
  type TemplateInput,
  type TemplateItemInput,
} from './share-types.js';
import { writeTemplate } from './share-writes.js';

/** Saves (or replaces) the owner's template; refused unless every agent is client-safe now. */
export async function saveTemplate(
  ctx: ShareContext,
  ownerId: string,
  input: TemplateInput,
): Promise<ShareTemplateRecord> {
  const { store } = ctx;
  const name = templateName(input.name);
  const title = text(input.title, 'title', 60);
  const sharedBy =
    input.shared_by === undefined ? await defaultBy(store, ownerId) : text(input.shared_by, 'shared_by', 60);
  if (!Array.isArray(input.items) || input.items.length === 0 || input.items.length > 50) {
    throw new ServiceError('INVALID_INPUT', 'items must list 1 to 50 agents, each {agent, first_message}.', {
      field: 'items',
    });
  }
  const items = [];
  for (const [n, raw] of (input.items as TemplateItemInput[]).entries()) {
    const agent = await ownedAgent(store, ownerId, raw?.agent);
    items.push({
      agentId: agent.id,
      theme: raw.theme === undefined ? {} : check.theme(raw.theme),
      firstMessage: text(raw.first_message, `items[${n}].first_message`, 2000),
      sort: Number.isInteger(raw.sort) ? (raw.sort as number) : n,
    });
  }
  if (new Set(items.map((i) => i.agentId)).size !== items.length) {
    throw new ServiceError('INVALID_INPUT', 'items names an agent twice: one item per agent.', {
      field: 'items',
    });
  }
  return writeTemplate(store, { ownerId, name, title, sharedBy, updatedAt: ctx.now(), items }, () =>
    ctx.newId('tpl_'),
  );
}

/** The owner's template by name, or `NOT_FOUND`. */
export async function templateByName(
  ctx: ShareContext,
  ownerId: string,
  name: unknown,
): Promise<ShareTemplateRecord> {
  const t = await ctx.store.shares.getTemplate(ownerId, templateName(name));
  if (!t)
    throw new ServiceError('NOT_FOUND', `No template "${name}": save one first.`, { field: 'template' });
  return t;
}

async function inviteByToken(ctx: ShareContext, token: unknown) {
  const invite =
    typeof token === 'string' && token.startsWith('svc_inv_')
      ? await ctx.store.shares.findInviteByHash(hashSecret(token))
      : null;
  if (!invite) {
    throw new ServiceError(
      'NOT_FOUND',
      'This invite link is not valid: ask the person who sent it for a new one.',
      { field: 'token' },
    );
  }
  if (ctx.now() - invite.createdAt > INVITE_TTL_MS) {
    throw new ServiceError('NOT_FOUND', 'This invite link expired (links last 7 days): ask for a new one.', {
      field: 'token',
    });
  }
  return invite;
}

/** A new (unapproved) invite of one of the owner's templates; the token is shown once. */
export async function createInvite(
  ctx: ShareContext,
  ownerId: string,
  input: { template: unknown; first_name?: unknown },
): Promise<InviteCreated> {
  const t = await templateByName(ctx, ownerId, input.template);
  const firstName =
    input.first_name === undefined || input.first_name === null || input.first_name === ''
      ? null
      : text(input.first_name, 'first_name', 40);
  const token = mintToken('svc_inv_', ctx.random);
  const invite = await ctx.store.shares.createInvite({
    id: ctx.newId('inv_'),
    ownerId,
    templateId: t.id,
    tokenHash: hashSecret(token),
    firstName,
    createdAt: ctx.now(),
    approvedAt: null,
    claimedAt: null,
    claimedBy: null,
  });
  return {
    invite_id: invite.id,
    expires_at: new Date(invite.createdAt + INVITE_TTL_MS).toISOString(),
    token,
    link: ctx.options.inviteLink(token),
    template: t.name,
    approved: false,
  };
}

/** What an invite link shares; no sign-in needed. */
export async function previewInvite(ctx: ShareContext, token: unknown): Promise<InvitePreview> {
  const invite = await inviteByToken(ctx, token);
  const t = await ctx.store.shares.getTemplateById(invite.templateId);
  const agents = [];
  for (const i of t?.items ?? []) {
    const a = await ctx.store.agents.get(i.agentId);
    if (a) agents.push({ name: a.name, color: a.color });
  }
  return {
    title: t?.title ?? '',
    shared_by: t?.sharedBy ?? '',
    first_name: invite.firstName,
    agents,
    claimable: invite.approvedAt !== null && invite.claimedAt === null,
    expires_at: new Date(invite.createdAt + INVITE_TTL_MS).toISOString(),
  };
}

/** Claims an approved invite for `userId`: one grant per item whose agent is client-safe now. */
export async function claimInvite(ctx: ShareContext, userId: string, token: unknown): Promise<ClaimResult> {
  const { store } = ctx;
  const invite = await inviteByToken(ctx, token);
  if (invite.ownerId === userId) {
    throw new ServiceError(
      'INVALID_INPUT',
      'This is your own invite: send the link to the person you share with.',
      { field: 'token' },
    );
  }
  if (invite.approvedAt === null) {
    throw new ServiceError('FORBIDDEN', 'This invite is not approved yet: ask its sender to approve it.', {
      field: 'token',
    });
  }
  if (!(await store.shares.claimInvite(invite.id, userId, ctx.now()))) {
    throw new ServiceError('CONFLICT', 'This invite was already used: ask its sender for a new link.', {
      field: 'token',
    });
  }
  if (invite.firstName) await store.shares.setFirstName(userId, invite.firstName);
  const t = await store.shares.getTemplateById(invite.templateId);
  const result: ClaimResult = { granted: [], skipped: [] };
  for (const item of t?.items ?? []) {
    const agent = await store.agents.get(item.agentId);
    if (!agent) continue;
    try {
      await insertGrant(ctx, agent, userId, {
        theme: item.theme,
        firstMessage: item.firstMessage,
        template: t!.name,
        inviteId: invite.id,
        sharedBy: t!.sharedBy,
      });
      result.granted.push({ agent_id: agent.id, name: agent.name });
    } catch (err) {
      // Checked in the grant's transaction: an item whose agent is not client-safe now is skipped, and
      // the claim goes on.
      if (isServiceError(err, 'NOT_CLIENT_SAFE')) {
        result.skipped.push({ agent_id: agent.id, name: agent.name, share_why: shareWhy(agent) });
      } else if (isServiceError(err, 'CONFLICT')) {
        // Already held: the claim keeps the live grant and its thread.
        result.granted.push({ agent_id: agent.id, name: agent.name });
      } else throw err;
    }
  }
  return result;
}
