// The invite plan (doc2 "Other"): `plan` proposes an invite of the owner's client-safe agents; `send` reads
// the (edited) plan back, re-checks safety, saves the template, and makes and approves the invite.
import { mintName, ServiceError } from '@screen-service/registry/kernel';
import { readAnswers } from './invite-answers.js';
import { defaultBy, ownedAgent, type ShareContext } from './share-context.js';
import { createInvite, saveTemplate } from './share-invites.js';
import type { InviteCreated, InvitePlan } from './share-types.js';

/** An invite plan of the owner's client-safe agents, each with a hello. */
export async function planInvite(ctx: ShareContext, ownerId: string): Promise<InvitePlan> {
  const safe = (await ctx.store.agents.listByUser(ownerId)).filter((a) => a.clientSafe);
  const by = await defaultBy(ctx.store, ownerId);
  const plan: InvitePlan = {
    template: `once-${mintName(4, ctx.random)}`,
    title: `${by}'s agents`.slice(0, 60),
    shared_by: by,
    first_name: '',
    agents: safe.map((a) => a.handle).join(','),
  };
  for (const a of safe) plan[`hello_${a.handle}`] = `Hi! I'm ${a.name}; ${by} shared me with you.`;
  return plan;
}

/** Sends a plan: the approved invite's link. `agents` lists handles or ids; `hello_<handle or id>` each hello. */
export async function sendInvite(ctx: ShareContext, ownerId: string, raw: unknown): Promise<InviteCreated> {
  const answers = readAnswers(raw);
  const refs = String(answers.agents ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  if (refs.length === 0) {
    throw new ServiceError(
      'INVALID_INPUT',
      'agents must name at least one of your agents (comma-separated handles).',
      { field: 'agents' },
    );
  }
  const name =
    typeof answers.template === 'string' && answers.template !== ''
      ? answers.template
      : `once-${mintName(4, ctx.random)}`;
  const items = [];
  for (const ref of refs) {
    // Checked again when the template is saved: the plan may be older than the host's last heartbeat.
    const agent = await ownedAgent(ctx.store, ownerId, ref);
    const hello = answers[`hello_${agent.handle}`] ?? answers[`hello_${ref}`];
    items.push({
      agent: agent.id,
      first_message: typeof hello === 'string' && hello.trim() !== '' ? hello : `Hi! I'm ${agent.name}.`,
    });
  }
  await saveTemplate(ctx, ownerId, {
    name,
    title: answers.title ?? `${await defaultBy(ctx.store, ownerId)}'s agents`,
    ...(answers.shared_by !== undefined && answers.shared_by !== '' ? { shared_by: answers.shared_by } : {}),
    items,
  });
  const created = await createInvite(ctx, ownerId, {
    template: name,
    ...(typeof answers.first_name === 'string' && answers.first_name !== ''
      ? { first_name: answers.first_name }
      : {}),
  });
  await ctx.store.shares.approveInvite(ownerId, created.invite_id, ctx.now());
  return { ...created, approved: true };
}
