// Both protocol eras on one endpoint, each driven by the official client of its SDK generation: the 2.x
// client pinned to 2026-07-28 (no handshake, per-request _meta) and the 1.x client's 2025 handshake.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

async function modernClient(token: string, mode: 'auto' | { pin: '2026-07-28' }) {
  const client = new ModernClient(
    { name: 'svc-test-2x', version: '1.0.0' },
    { versionNegotiation: { mode } },
  );
  await client.connect(
    new ModernTransport(new URL(stack.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

type Answers = { answers: { kind: string; text: string }[] };

describe('2026-07-28 (SDK 2.x client)', () => {
  it('a waiting svc_answers whose HTTP request closes claims nothing: the answer stays for the next call', async () => {
    const c = await stack.newConnection('Leaver 2026');
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${c.token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'svc_answers',
    };
    const call = (id: number, args: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'svc_answers', arguments: args, _meta: meta },
      });
    const controller = new AbortController();
    const waiting = fetch(stack.mcpUrl, {
      method: 'POST',
      headers,
      body: call(1, { wait: 25 }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    await vi.waitFor(() => expect(stack.notifier.listenerCount(c.user.id)).toBe(1));
    controller.abort();
    expect(await waiting).toBe('aborted');
    await vi.waitFor(() => expect(stack.notifier.listenerCount(c.user.id)).toBe(0));
    await stack.threads.say(c.user.id, c.agent.id, { text: 'still here' });
    const r = await fetch(stack.mcpUrl, { method: 'POST', headers, body: call(2, {}) });
    const answers = ((await r.json()) as { result: { structuredContent: Answers } }).result.structuredContent
      .answers;
    expect(answers.map((a) => a.text)).toEqual(['still here']);
  });

  it('discovers the server without a handshake and runs a turn: svc_show, a tap, svc_answers', async () => {
    const { user, agent, token } = await stack.newConnection('Modern');
    const client = await modernClient(token, { pin: '2026-07-28' });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['svc_show', 'svc_answers', 'svc_tap']),
      );
      const shown = await client.callTool({
        name: 'svc_show',
        arguments: { lines: 'choose@go "Go?" Yes|No' },
      });
      const { screen_id } = shown.structuredContent as { screen_id: string };
      const waiting = client.callTool({ name: 'svc_answers', arguments: { screen_id, wait: 25 } });
      await vi.waitFor(() => expect(stack.notifier.listenerCount(user.id)).toBe(1));
      await stack.threads.tap(user.id, agent.id, { screen_id, event: { id: 'go', value: 'Yes' } });
      const got = (await waiting).structuredContent as Answers;
      expect(got.answers.map((a) => a.text)).toEqual([expect.stringMatching(/^\[svc\] go choose /)]);
    } finally {
      await client.close();
    }
  });

  it('an auto-negotiating client lands on 2026-07-28; the legacy 1.x client keeps its handshake', async () => {
    const { token } = await stack.newConnection('Both');
    const auto = await modernClient(token, 'auto');
    try {
      expect(auto.getProtocolEra()).toBe('modern');
      const modern = await auto.callTool({ name: 'svc_threads', arguments: {} });
      const legacy = await (await stack.connect(token)).callTool({ name: 'svc_threads', arguments: {} });
      // One code path: both eras get the same tool answer.
      expect(modern.structuredContent).toEqual(legacy.structuredContent);
    } finally {
      await auto.close();
    }
  });

  it('answers server/discover with both eras and refuses a malformed envelope as the revision requires', async () => {
    const { token } = await stack.newConnection('Raw');
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = {
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    };
    const discover = await post(
      stack.mcpUrl,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      headers,
    );
    expect(discover.status).toBe(200);
    expect(discover.json).toMatchObject({
      id: 1,
      result: { supportedVersions: expect.arrayContaining(['2026-07-28']), capabilities: { tools: {} } },
    });
    // No protocolVersion in _meta: -32602 and HTTP 400, the request's id echoed.
    const bad = await post(
      stack.mcpUrl,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      headers,
    );
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ id: 2, error: { code: -32602 } });
    // The handshake is gone in this revision: initialize under a 2026-07-28 claim is not a method.
    const init = await post(
      stack.mcpUrl,
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: { _meta: meta } },
      { ...headers, 'mcp-method': 'initialize' },
    );
    expect(init.json).toMatchObject({ id: 3, error: { code: -32601 } });
  });
});
