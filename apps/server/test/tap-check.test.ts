// A tap carries only what the screen offered (issue 46 item 0), over real HTTP: the person's API, the in-chat
// view's svc_tap through the official MCP SDK client, and a shared holder's taps all refuse a value the screen
// never offered with a 400 that names what it accepts; a valid tap still reaches svc_answers.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MOUNTS } from '@screen-service/registry/mounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from './harness.js';

const CONNECT = '/functions/v1/svc-connect';
const SAFE = {
  terminal: 'off',
  files: 'off',
  reach: [],
  memory: 'off',
  runner: 'api',
  profile: 'own',
  extra_keys: 0,
};
const LINES = 'choose@ok "Deploy to production?" Yes|No\nconfirm@sure "Really?"\nform@f name:text age:number';

let t: TestServer;
let call: ReturnType<typeof client>;
let person: string;
let personId: string;
let agentId: string;
let mcp: Client;
let screenId: string;

interface Answer {
  kind: string;
  event: Record<string, unknown> | null;
}

async function tool(name: string, args: Record<string, unknown>) {
  const r = await mcp.callTool({ name, arguments: args });
  return r as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
}
const answers = async () =>
  ((await tool('svc_answers', { screen_id: screenId })).structuredContent as { answers: Answer[] }).answers;

beforeAll(async () => {
  t = await startTestServer();
  call = client(t.base);
  const signed = await signUp(call, 'deployer@example.com');
  person = signed.access_token;
  personId = signed.user.id;
  const created = (await call('POST', '/agents', { token: person, body: { name: 'Deploys' } })).body;
  agentId = created.agent.id;
  const paired = await call('POST', CONNECT, {
    body: { action: 'pair', code: created.pairing.code, remote_ref: 'deploys', kind: 'mcp', host_name: 'ci' },
  });
  const headers = { authorization: `Bearer ${paired.body.connector_token}` };
  mcp = new Client({ name: 'tap-check', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(t.base + MOUNTS.mcp), { requestInit: { headers } }),
  );
  const shown = await tool('svc_show', { lines: LINES });
  screenId = (shown.structuredContent as { screen_id: string }).screen_id;
});
afterAll(async () => {
  await mcp?.close();
  await t.close();
});

describe("the person's API (POST /agents/:id/taps)", () => {
  const tap = (event: unknown) =>
    call('POST', `/agents/${agentId}/taps`, { token: person, body: { screen_id: screenId, event } });

  it.each([
    [{ id: 'ok', value: 'Pizza' }, 'event.value', 'choose "ok" accepts one of: Yes, No; got "Pizza".'],
    [
      { id: 'sure', value: 'maybe' },
      'event.value',
      'confirm "sure" accepts true (Yes) or false (No); got "maybe".',
    ],
    [
      { id: 'f', value: { drop: 'table' } },
      'event.value',
      'form "f" accepts only its fields: name (text), age (number); got a field "drop".',
    ],
    [{ id: 'f', value: { age: 'old' } }, 'event.value.age', 'form "f" accepts age as a number; got "old".'],
    [
      { id: 'ok', value: 'Yes', approved: true },
      'event.approved',
      'choose "ok" accepts only the event fields value; got a field "approved".',
    ],
  ])('refuses %j with a 400 naming what the screen accepts', async (event, field, message) => {
    const r = await tap(event);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_input', field, message });
  });

  it('wrote nothing for the refusals; a valid tap reaches svc_answers as the person sent it', async () => {
    expect(await answers()).toEqual([]);
    const r = await tap({ id: 'ok', value: 'Yes' });
    expect(r.status).toBe(201);
    expect(r.body.line.split('\n')[0]).toBe('[svc] ok choose choice=Yes');
    const [a] = await answers();
    expect(a).toMatchObject({
      kind: 'tap',
      event: { id: 'ok', preset: 'choose', value: 'Yes', screen: screenId },
    });
  });
});

describe("the in-chat view's svc_tap (MCP SDK client)", () => {
  it('refuses a value the screen never offered as a tool error naming what it accepts, and writes nothing', async () => {
    const r = await tool('svc_tap', {
      screen_id: screenId,
      event: { id: 'sure', value: 'maybe' },
      told_model: false,
    });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('confirm "sure" accepts true (Yes) or false (No); got "maybe".');
    const forged = await tool('svc_tap', {
      screen_id: screenId,
      event: { id: 'sure', value: true, label: 'No' },
      told_model: false,
    });
    expect(forged.isError).toBe(true);
    expect(forged.content[0]!.text).toContain('the label "Yes" with true');
    expect(await answers()).toEqual([]);
  });

  it('a valid tap round-trips to svc_answers with the label the screen gives', async () => {
    const r = await tool('svc_tap', {
      screen_id: screenId,
      event: { id: 'sure', value: true },
      told_model: false,
    });
    expect(r.isError).toBeFalsy();
    expect((await answers()).map((a) => a.event)).toEqual([
      { id: 'sure', preset: 'confirm', value: true, screen: screenId, label: 'Yes' },
    ]);
  });
});

describe("a shared holder's taps", () => {
  it('are checked the same way in the holder thread of a shared agent', async () => {
    const created = (await call('POST', '/agents', { token: person, body: { name: 'Helper' } })).body;
    const paired = await call('POST', CONNECT, {
      body: {
        action: 'pair',
        code: created.pairing.code,
        remote_ref: 'helper',
        kind: 'hostfw',
        host_name: 'box',
      },
    });
    const host = paired.body.connector_token as string;
    await call('POST', CONNECT, { token: host, body: { action: 'heartbeat', sandbox: { helper: SAFE } } });
    const holder = await signUp(call, 'holder@example.com');
    await t.running.services.shares.grant(personId, { agent: 'helper', user: holder.user.id });
    const reply = await call('POST', `${CONNECT}/messages/reply`, {
      token: host,
      body: {
        agent_id: created.agent.id,
        session: `${created.agent.id}~${holder.user.id}`,
        idempotency_key: 'ask-holder',
        lines: 'buttons@go "Go on?" Continue|Stop',
      },
    });
    expect(reply.status).toBe(200);
    const page = await call('GET', `/agents/${created.agent.id}/messages`, { token: holder.access_token });
    const screen = (page.body.messages as { screen: { id: string } | null }[]).find((m) => m.screen)!.screen!;
    const tap = (value: unknown) =>
      call('POST', `/agents/${created.agent.id}/taps`, {
        token: holder.access_token,
        body: { screen_id: screen.id, event: { id: 'go', value } },
      });
    const refused = await tap('Delete everything');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'invalid_input',
      field: 'event.value',
      message: 'buttons "go" accepts one of: Continue, Stop; got "Delete everything".',
    });
    expect((await tap('Stop')).status).toBe(201);
  });
});
