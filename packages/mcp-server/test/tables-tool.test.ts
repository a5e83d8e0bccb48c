// svc_tables through the official SDK client over streamable HTTP against the real stack.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './harness.js';

interface ToolOut {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

async function call(client: Client, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name: 'svc_tables', arguments: args })) as ToolOut;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

describe('svc_tables (official MCP SDK client)', () => {
  it('is listed with the guide table words and takes lines and agent', async () => {
    const { token } = await stack.newConnection('Coach');
    const client = await stack.connect(token);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'svc_tables')!;
    expect(tool.description).toContain('put <table> [<key>] <col>=<value>');
    expect(tool.description).toContain('query weights sort=-Day');
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['agent', 'lines']);
  });

  it('writes, queries, refuses and lists through the same call as the HTTP route', async () => {
    const { token } = await stack.newConnection('Coach');
    const client = await stack.connect(token);
    const r = await call(client, {
      lines:
        'table create Weights Day:date Weight:number:kg\nput Weights Day=2026-11-20 Weight=72.5\nput Weights Weight=x\nquery Weights',
    });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as {
      ok: unknown[];
      failed: { code: string }[];
      results: { rows: unknown[][] }[];
    };
    expect(sc.ok).toHaveLength(2);
    expect(sc.failed.map((f) => f.code)).toEqual(['VALUE_DOES_NOT_FIT']);
    expect(sc.results[0]!.rows).toEqual([['2026-11-20', 72.5]]);
    expect(JSON.parse(r.content[0]!.text)).toEqual(sc);
    const held = await call(client, {});
    expect(held.structuredContent).toMatchObject({ tables: '[svc] tables Weights(1 rows: Day, Weight)' });
  });

  it('a delete waits for the person: the card lands in the thread', async () => {
    const { token, user, agent } = await stack.newConnection('Nurse');
    const client = await stack.connect(token);
    await call(client, { lines: 'table create L A:text\nput L k A=x' });
    const r = await call(client, { lines: 'put L k +delete' });
    expect(r.structuredContent).toMatchObject({ pending: [{ prompt: 'Delete row k from L?' }] });
    const page = await stack.threads.page(user.id, agent.id);
    expect(page.messages.at(-1)!.screen!.lines).toMatch(
      /^confirm@tdel-p\d+ "Delete row k from L\?" Delete\|Keep$/,
    );
  });

  it('refusals are tool errors with the wire code', async () => {
    const { token } = await stack.newConnection('Cook');
    const client = await stack.connect(token);
    const r = await call(client, { agent: 'nobody', lines: 'query X' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/^agent_not_found: /);
    const many = Array.from({ length: 51 }, (_, i) => `table create T${i} A:text`).join('\n');
    const over = await call(client, { lines: many });
    expect(over.isError).toBe(true);
    expect(over.content[0]!.text).toMatch(/^limit_exceeded: .*at most 50/);
  });
});
