// svc_show's deadline through the official SDK client (ADR 0260): the default lands once at the deadline on
// the core's clock, svc_answers marks it, and a late tap is refused saying why.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedGrant, seedUser } from '@screen-service/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './harness.js';

interface ToolOut {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolOut;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('svc_show deadline', () => {
  it('decides by default at the deadline, once, and svc_answers says so', async () => {
    const { user, agent, token } = await stack.newConnection('Cook');
    const client = await stack.connect(token);
    const shown = await call(client, 'svc_show', {
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      deadline: { in: '10m', default: { lunch: 'Soup' }, escalate: [{ at: '50%', do: 'remind' }] },
    });
    expect(shown.isError).toBeFalsy();
    const sc = shown.structuredContent as {
      screen_id: string;
      deadline: { due: string; defaults: unknown[] };
    };
    expect(sc.deadline.defaults).toEqual([{ id: 'lunch', value: 'Soup' }]);
    expect(shown.content[0]!.text).toContain('lunch=Soup is chosen');

    stack.core.advance(10 * 60_000);
    const ran = await stack.core.deadlines.sweep();
    expect(ran.map((r) => r.step)).toEqual(['remind', 'deadline']);
    const got = await call(client, 'svc_answers', { screen_id: sc.screen_id });
    const answers = (got.structuredContent as { answers: Record<string, unknown>[] }).answers;
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ decided_by: 'default', step: 'deadline', event: { value: 'Soup' } });
    expect(got.content[0]!.text).toMatch(
      /^Nobody answered by the deadline; decided by default:\n\[svc\] lunch/,
    );
    expect(await stack.core.deadlines.sweep()).toEqual([]);

    const late = await stack.threads
      .tap(user.id, agent.id, { screen_id: sc.screen_id, event: { id: 'lunch', value: 'Salad' } })
      .then(
        () => null,
        (e: Error) => e.message,
      );
    expect(late).toMatch(/expired at .*: Soup was chosen by default/);
  });

  it('refuses a deadline it cannot keep as a tool error naming the field, and shows nothing', async () => {
    const { token } = await stack.newConnection('Cook');
    const client = await stack.connect(token);
    const r = await call(client, 'svc_show', {
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      deadline: { in: '10m', default: { lunch: 'Pizza' } },
    });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/deadline\.default\.lunch: .*Pizza/);
    const threads = await call(client, 'svc_threads');
    expect((threads.structuredContent as { agents: { unread: number }[] }).agents[0]!.unread).toBe(0);
  });
});

describe('svc_show deadline: offer to holders (ADR 0280)', () => {
  it('takes an offer step naming a holder: the ask appears in their thread, and their answer settles it', async () => {
    const { user, agent, token } = await stack.newConnection('Cook');
    const holder = await seedUser(stack.core.store, { passwordHash: 'unused' });
    await seedGrant(
      stack.core.store,
      { agentId: agent.id, ownerId: user.id, userId: holder.id },
      { at: stack.core.clock() },
    );
    const client = await stack.connect(token);
    const shown = await call(client, 'svc_show', {
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      deadline: { in: '10m', default: 'none', escalate: [{ at: '50%', do: 'offer', to: [holder.id] }] },
    });
    expect(shown.isError, shown.content[0]?.text).toBeFalsy();
    const screenId = (shown.structuredContent as { screen_id: string }).screen_id;

    stack.core.advance(5 * 60_000);
    expect((await stack.core.deadlines.sweep()).map((r) => r.step)).toEqual(['offer']);
    const offered = (await stack.threads.page(holder.id, agent.id)).messages.find((m) => m.screen)!;
    await stack.threads.tap(
      holder.id,
      agent.id,
      { screen_id: offered.screen!.id, event: { id: 'lunch', value: 'Salad' } },
      { session: `fam_${holder.id}` },
    );
    const got = await call(client, 'svc_answers', { screen_id: screenId });
    const answers = (got.structuredContent as { answers: Record<string, unknown>[] }).answers;
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      decided_by: 'escalation',
      step: 'offer',
      by: holder.id,
      event: { value: 'Salad' },
    });
  });

  it('refuses an offer without holders as a tool error naming the field', async () => {
    const { token } = await stack.newConnection('Cook');
    const client = await stack.connect(token);
    const r = await call(client, 'svc_show', {
      lines: 'choose@lunch "Lunch?" Soup|Salad',
      deadline: { in: '10m', escalate: [{ at: '50%', do: 'offer' }] },
    });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/deadline\.escalate\[0\]\.to/);
  });
});
