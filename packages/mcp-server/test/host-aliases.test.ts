// Every alias key of the other host family, the resource's CSP and the spec label, read through the SDK client.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSvcMcpServer } from '../src/index.js';
import { type Stack, startStack } from './harness.js';

const CDN = 'https://img.example.net/prompt/{prompt}';
const STORAGE = 'https://svc.example.org';
const TOOLS = [
  'svc_show',
  'svc_answers',
  'svc_say',
  'svc_threads',
  'svc_tap',
  'svc_tables',
  'svc_withdraw',
] as const;
const OAUTH = [{ type: 'oauth2', scopes: ['svc'] }];

let stack: Stack;
let client: Client;
beforeAll(async () => {
  stack = await startStack({
    screenApp: {
      html: '<!doctype html><html><head><title>v</title></head><body></body></html>',
      resourceDomains: [STORAGE],
      imageCdn: CDN,
      description: 'Shows the screen.',
      prefersBorder: true,
    },
  });
  client = await stack.connect((await stack.newConnection('Alias')).token);
});
afterAll(async () => {
  await stack.close();
});

// The SDK's Tool schema strips keys it does not know; a loose one keeps the top-level securitySchemes.
const LooseTools = z.object({ tools: z.array(z.looseObject({ name: z.string() })) });

describe('tool alias metadata', () => {
  it('carries invocation texts (at most 64 characters) and oauth2/svc security schemes on every tool', async () => {
    const { tools } = ListToolsResultSchema.parse(await client.listTools());
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      const meta = tool._meta ?? {};
      const invoking = meta['openai/toolInvocation/invoking'];
      const invoked = meta['openai/toolInvocation/invoked'];
      expect(typeof invoking, tool.name).toBe('string');
      expect(typeof invoked, tool.name).toBe('string');
      expect((invoking as string).length, tool.name).toBeGreaterThan(0);
      expect((invoking as string).length, tool.name).toBeLessThanOrEqual(64);
      expect((invoked as string).length, tool.name).toBeLessThanOrEqual(64);
      expect(meta.securitySchemes, tool.name).toEqual(OAUTH);
    }
    const raw = await client.request({ method: 'tools/list', params: {} }, LooseTools);
    for (const tool of raw.tools) expect(tool.securitySchemes, tool.name).toEqual(OAUTH);
  });

  it('names the output template on svc_show and makes svc_tap private and widget-accessible', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t._meta ?? {}]));
    expect(byName.get('svc_show')).toMatchObject({
      ui: { resourceUri: 'ui://svc/screen' },
      'ui/resourceUri': 'ui://svc/screen',
      'openai/outputTemplate': 'ui://svc/screen',
    });
    expect(byName.get('svc_tap')).toMatchObject({
      ui: { visibility: ['app'] },
      'openai/visibility': 'private',
      'openai/widgetAccessible': true,
    });
    for (const name of ['svc_answers', 'svc_say', 'svc_threads']) {
      expect(byName.get(name)).not.toHaveProperty('openai/outputTemplate');
      expect(byName.get(name)).not.toHaveProperty('openai/visibility');
    }
  });

  it("gives svc_tap's event real types (no empty schema an inspector's strict mode flags)", async () => {
    const { tools } = await client.listTools();
    const event = tools.find((t) => t.name === 'svc_tap')!.inputSchema.properties!.event as {
      properties: { value: unknown };
      additionalProperties: unknown;
    };
    const empty = (s: unknown) => typeof s === 'object' && s !== null && Object.keys(s).length === 0;
    expect(empty(event.properties.value)).toBe(false);
    expect(empty(event.additionalProperties)).toBe(false);
    expect(JSON.stringify(event)).not.toContain('{}');
  });
});

describe('the screen resource', () => {
  it('lists its CSP (storage and CDN origins, no connections), description and border in both families', async () => {
    const { resources } = await client.listResources();
    const listed = resources.find((r) => r.uri === 'ui://svc/screen')!;
    const read = await client.readResource({ uri: 'ui://svc/screen' });
    const content = read.contents[0] as { text: string; _meta: Record<string, unknown> };
    for (const meta of [listed._meta, content._meta]) {
      expect(meta).toEqual({
        ui: {
          csp: { connectDomains: [], resourceDomains: [STORAGE, 'https://img.example.net'] },
          prefersBorder: true,
        },
        'openai/widgetCSP': { connect_domains: [], resource_domains: [STORAGE, 'https://img.example.net'] },
        'openai/widgetDescription': 'Shows the screen.',
        'openai/widgetPrefersBorder': true,
      });
    }
    expect(listed.description).toBe('Shows the screen.');
    // The page holds the same policy and the template the view draws `image prompt=` from.
    expect(content.text).toContain(
      `img-src data: blob: ${STORAGE} https://img.example.net; connect-src 'none'`,
    );
    expect(content.text).toContain(`<meta name="svc-image-cdn" content="${CDN}">`);
  });

  it('refuses an image CDN without {prompt} at start-up, naming the fix', () => {
    const build = (imageCdn: string) => () =>
      createSvcMcpServer({ ops: stack.ops, screenApp: { html: '<!doctype html>', imageCdn } });
    expect(build('https://img.example.net/x')).toThrow(
      /no \{prompt\} placeholder; for example https:\/\/image\.example\/prompt\/\{prompt\}/,
    );
    expect(build('ftp://img.example.net/{prompt}')).toThrow(/must start with https:\/\/ or http:\/\//);
  });
});

describe('spec label', () => {
  it('labels the tool server spec v4 in serverInfo and the instructions', () => {
    expect(client.getServerVersion()).toMatchObject({
      name: 'screen-service',
      title: 'Screen Service (spec v4)',
    });
    expect(client.getInstructions()?.split('\n')[0]).toBe('Screen Service tool server (spec v4).');
  });
});

describe('svc_threads and svc_show results (issue 28)', () => {
  it('svc_threads: the "(default)" in the text and is_default agree, the first agent is the default', async () => {
    const { user, token } = await stack.newConnection('First');
    await stack.pairAgent(user.id, 'Second', { token });
    const c = await stack.connect(token);
    const r = (await c.callTool({ name: 'svc_threads', arguments: {} })) as unknown as {
      content: { text: string }[];
      structuredContent: { agents: { handle: string; is_default: boolean }[] };
    };
    const agents = r.structuredContent.agents;
    expect(agents.map((a) => a.is_default)).toEqual([true, false]);
    const lines = r.content[0]!.text.split('\n');
    expect(lines.map((line) => line.endsWith('(default)'))).toEqual(agents.map((a) => a.is_default));
  });

  it("svc_threads: a second connection's first agent is its default even when the person's default is elsewhere", async () => {
    // The person's own default agent sits on the first connection; the second (as an OAuth or second host
    // pairing creates it) serves only agents that are not the person's default.
    const { user } = await stack.newConnection('Home');
    const other = await stack.pairAgent(user.id, 'Work');
    const c = await stack.connect(other.token);
    const r = (await c.callTool({ name: 'svc_threads', arguments: {} })) as unknown as {
      content: { text: string }[];
      structuredContent: { agents: { handle: string; is_default: boolean }[] };
    };
    expect(r.structuredContent.agents.map((a) => [a.handle, a.is_default])).toEqual([['work', true]]);
    expect(r.content[0]!.text.endsWith('(default)')).toBe(true);
    // And a call without `agent` acts as that one.
    const said = (await c.callTool({ name: 'svc_say', arguments: { text: 'hi' } })) as unknown as {
      structuredContent: { agent: { handle: string } };
    };
    expect(said.structuredContent.agent.handle).toBe('work');
  });

  it('svc_show lists only tappable ids and carries the chat line', async () => {
    const shown = (await client.callTool({
      name: 'svc_show',
      arguments: { lines: 'text hi\nchoose@pick "Which?" A|B\nimage prompt="a fox"', text: 'Hello' },
    })) as { content: { text: string }[]; structuredContent: Record<string, unknown> };
    expect(shown.structuredContent).toMatchObject({ tap_ids: ['pick'], text: 'Hello' });
    expect(shown.content[0]!.text).toContain('Tap ids: pick.');
    const plain = (await client.callTool({ name: 'svc_show', arguments: { lines: 'text hi' } })) as {
      content: { text: string }[];
      structuredContent: Record<string, unknown>;
    };
    expect(plain.structuredContent.tap_ids).toEqual([]);
    expect(plain.content[0]!.text).toContain('Tap ids: none');
    expect(plain.structuredContent).not.toHaveProperty('text');
  });
});
