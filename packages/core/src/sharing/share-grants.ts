// Grants (doc2 "Grant"): give one client-safe agent to one person (first message at the top of the new
// thread), and revoke: gone from their list at once, a silent push, their open thread closed.
import { ServiceError } from '@screen-service/registry/kernel';
import type { AgentRecord, GrantRecord } from '@screen-service/registry/model';
import { tapsOf } from '@screen-service/screen-rules';
import { defaultBy, givenView, ownedAgent, type ShareContext, text, userByRef } from './share-context.js';
import type { GivenGrantView, GrantInput, RevokedGrantView } from './share-types.js';
import { writeGrant } from './share-writes.js';

/** The grant's first message at the top of the new thread (`meta.first`), as a screen when it is one. */
async function writeFirst(ctx: ShareContext, agent: AgentRecord, grant: GrantRecord) {
  if (!grant.firstMessage) return;
  const { writer } = ctx;
  const target = { userId: grant.userId, grantMuted: grant.pushMuted };
  const id = writer.newId('scr_');
  const parsed = ctx.screenLines.parse(grant.firstMessage, { screen: id });
  if (parsed.errors.length === 0 && parsed.ops.length > 0) {
    await writer.appendAgentScreen(
      agent,
      { body: grant.firstMessage, meta: { first: true }, connectorId: null },
      { id, lines: grant.firstMessage, ops: parsed.ops, taps: tapsOf(parsed.ops) },
      target,
    );
  } else {
    await writer.appendAgentText(agent, grant.firstMessage, { first: true }, null, undefined, target);
  }
}

/** Writes a live grant (client-safe checked in its transaction), its first message, and tells both lists. */
export async function insertGrant(
  ctx: ShareContext,
  agent: AgentRecord,
  userId: string,
  fields: Pick<GrantRecord, 'theme' | 'firstMessage' | 'template' | 'inviteId' | 'sharedBy'>,
): Promise<GrantRecord> {
  if (userId === agent.userId) {
    throw new ServiceError('INVALID_INPUT', 'An owner cannot be granted their own agent.', { field: 'user' });
  }
  const grant = await writeGrant(ctx.store, {
    id: ctx.newId('grt_'),
    agentId: agent.id,
    ownerId: agent.userId,
    userId,
    role: 'user',
    ...fields,
    pushMuted: false,
    grantedAt: ctx.now(),
  });
  await writeFirst(ctx, agent, grant);
  ctx.options.notifier.publish({ type: 'agents', userId });
  ctx.options.notifier.publish({ type: 'agents', userId: agent.userId });
  return grant;
}

/** `grant <agent> <user>`: shares one agent with one person who has an account. */
export async function grantTo(
  ctx: ShareContext,
  ownerId: string,
  input: GrantInput,
): Promise<GivenGrantView> {
  const { store } = ctx;
  const agent = await ownedAgent(store, ownerId, input.agent);
  const user = await userByRef(store, input.user);
  const by = input.by === undefined ? await defaultBy(store, ownerId) : text(input.by, 'by', 60);
  const g = await insertGrant(ctx, agent, user.id, {
    theme: input.look ? agent.theme : {},
    firstMessage: input.hello
      ? `Hi${user.firstName ? ` ${user.firstName}` : ''}! I'm ${agent.name}; ${by} shared me with you.`
      : null,
    template: null,
    inviteId: null,
    sharedBy: by,
  });
  return givenView(store, g);
}

/** `revoke <agent> <user>`: ends the live grant; the holder's list and open thread learn it at once. */
export async function revokeGrant(
  ctx: ShareContext,
  ownerId: string,
  input: { agent: unknown; user: unknown },
): Promise<RevokedGrantView> {
  const { store } = ctx;
  const agent = await ownedAgent(store, ownerId, input.agent);
  const user = await userByRef(store, input.user);
  const g = await store.shares.revoke(ownerId, agent.id, user.id, ctx.now());
  if (!g) {
    throw new ServiceError(
      'NOT_FOUND',
      `${String(input.user)} holds no live grant for ${agent.name} (${agent.handle}).`,
      { field: 'user' },
    );
  }
  // doc2 Other: only a grant with no live row pushes (a revoke just ended the only one).
  if (!(await store.shares.liveGrant(agent.id, user.id))) await ctx.options.push.revoked(user.id, agent.id);
  ctx.options.notifier.publish({ type: 'agents', userId: user.id });
  ctx.options.notifier.publish({ type: 'agents', userId: ownerId });
  const { user: holder, ...view } = await givenView(store, g);
  return { ...view, user: { id: holder.id, first_name: holder.first_name } };
}
