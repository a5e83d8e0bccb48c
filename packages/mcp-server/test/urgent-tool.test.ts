// svc_show's `urgent` through the official SDK client (ADR 0258): the screen's row carries it, so the push
// sender may break through the person's quiet hours when they allow urgent asks; a non-boolean is refused.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './harness.js';

interface ToolOut {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolOut;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('svc_show urgent', () => {
  it('marks the screen urgent only when asked', async () => {
    const { token } = await stack.newConnection('Pager');
    const client = await stack.connect(token);
    const urgent = await call(client, 'svc_show', { lines: 'confirm@go "Roll back?"', urgent: true });
    const plain = await call(client, 'svc_show', { lines: 'confirm@go "Roll back?"' });
    expect(urgent.isError).toBeFalsy();
    expect(plain.isError).toBeFalsy();
    const metaOf = async (r: ToolOut) => {
      const id = (r.structuredContent as { message_id: string }).message_id;
      return (await stack.store.threads.getMessage(id))?.meta;
    };
    expect(await metaOf(urgent)).toMatchObject({ urgent: true });
    expect((await metaOf(plain))?.urgent).toBeUndefined();
  });

  it('refuses an urgent that is not true or false, naming it', async () => {
    const { token } = await stack.newConnection('Pager');
    const client = await stack.connect(token);
    const r = await call(client, 'svc_show', { lines: 'confirm@go "Roll back?"', urgent: 'yes' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/urgent/);
  });
});
