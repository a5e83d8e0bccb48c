// server-everything's elicitation tools through the relay (phone only): the asks reach the person's thread as
// screens, and what the person answers (accept, decline, cancel) is exactly what the wrapped server receives.
import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientThroughRelay, EVERYTHING, relayArgs, relayFiles, resultText } from './harness.js';
import { answerForm, questionOf, rawResult, textOf } from './person.js';
import { pairedAgent, type Service, startService } from './service.js';

let service: Service;
let paired: Awaited<ReturnType<typeof pairedAgent>>;
let client: Client;
let files: ReturnType<typeof relayFiles>;
const seen = new Set<string>();

beforeAll(async () => {
  service = await startService();
});
// Each test its own agent (connection) and relay: the service's rate limit is per connection, and a relayed form
// spends three calls a screen (svc_show, the long poll, the acknowledging poll), so tests sharing one
// connection would pass or time out by the order they run in. Pacing under the limit is rate-limit.test.ts's.
beforeEach(async () => {
  paired = await pairedAgent(service.base, 'Everything');
  files = relayFiles(paired.token);
  ({ client } = await clientThroughRelay(
    relayArgs({ mcpUrl: service.mcpUrl, tokenFile: files.tokenFile, server: [process.execPath, EVERYTHING] }),
  ));
});
afterEach(async () => {
  await client?.close();
  if (files) fs.rmSync(files.dir, { recursive: true, force: true });
});
afterAll(async () => {
  await service?.stop();
});

describe('form mode', () => {
  it('the relay declares elicitation, so the server offers its elicitation tools to a client that has none', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['trigger-elicitation-request', 'trigger-url-elicitation']));
  });

  it('every field becomes a screen; a value outside the schema is refused with the reason and asked again; the server receives exactly the answers', async () => {
    const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const screens = await answerForm(paired.person, seen, {
      String: ['Ana Lima'],
      Boolean: [true],
      'String with default': ['-'],
      'String with email format': ['ana@example.com'],
      'String with uri format': ['https://ana.example/work'],
      'String with date format': ['1990-02-30', '1990-02-03'],
      Integer: ['500', '7'],
      'Number in range 1-1000': ['2.5'],
      'Untitled Single Select Enum': ['Joey'],
      'Untitled Multiple Select Enum': [['Piano', 'Drums']],
      'Titled Single Select Enum': ['Wonder Woman'],
      'Titled Multiple Select Enum': [['Tuna', 'Trout']],
      'Legacy Titled Single Select Enum': ['Dogs'],
    });
    const text = resultText(await call);
    expect(rawResult(text)).toEqual({
      action: 'accept',
      content: {
        name: 'Ana Lima',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'ana@example.com',
        homepage: 'https://ana.example/work',
        birthdate: '1990-02-03',
        integer: 7,
        number: 2.5,
        untitledSingleSelectEnum: 'Joey',
        untitledMultipleSelectEnum: ['Piano', 'Drums'],
        titledSingleSelectEnum: 'hero-3',
        titledMultipleSelectEnum: ['fish-1', 'fish-3'],
        legacyTitledEnum: 'pet-2',
      },
    });
    // The person saw which server asks and its message, each component of its kind, and the refusals' reasons.
    const [first, ...fields] = screens;
    expect(questionOf(first!.lines)).toContain('Everything Reference Server');
    expect(await textOf(paired.person, first!.id)).toContain(
      'Please provide inputs for the following fields',
    );
    const kinds = fields.map((s) => s.lines.split('@')[0]);
    expect(kinds).toEqual(expect.arrayContaining(['ask', 'confirm', 'choose']));
    const again = fields.filter((s) => /Integer|String with date format/.test(questionOf(s.lines)));
    expect(again).toHaveLength(4);
    expect(await textOf(paired.person, again[1]!.id)).toContain('must be a date, YYYY-MM-DD');
    expect(await textOf(paired.person, again[3]!.id)).toContain('Integer must be at most 100');
    expect(fields.find((s) => s.lines.includes('+multi'))?.lines).toContain('Guitar|Piano|Violin|Drums|Bass');
    expect(questionOf(fields.find((s) => s.lines.includes('Integer'))!.lines)).toContain('Default: 42');
  });

  it('Decline on the first screen: the server receives decline and no content', async () => {
    const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const first = await paired.person.nextScreen(seen);
    await paired.person.tap(first.id, { id: 'ask', value: 'Decline' });
    expect(rawResult(resultText(await call))).toEqual({ action: 'decline' });
  });

  it('Cancel on the review: the server receives cancel and none of the typed answers', async () => {
    const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    await answerForm(
      paired.person,
      seen,
      {
        String: ['Not sent'],
        Boolean: [false],
        'String with default': ['-'],
        'String with email format': ['-'],
        'String with uri format': ['-'],
        'String with date format': ['-'],
        Integer: ['-'],
        'Number in range 1-1000': ['-'],
        'Untitled Single Select Enum': ['Skip'],
        'Untitled Multiple Select Enum': [['None']],
        'Titled Single Select Enum': ['Skip'],
        'Titled Multiple Select Enum': [['None']],
        'Legacy Titled Single Select Enum': ['Skip'],
      },
      'Cancel',
    );
    expect(rawResult(resultText(await call))).toEqual({ action: 'cancel' });
  });
});

describe('URL mode', () => {
  it('the link is shown with its host; Done answers accept', async () => {
    const url = 'https://accounts.example.com/connect?state=xyz';
    const call = client.callTool({
      name: 'trigger-url-elicitation',
      arguments: { url, message: 'Connect your calendar.' },
    });
    const link = await paired.person.nextScreen(seen);
    expect(link.lines).toContain(url);
    expect(await textOf(paired.person, link.id)).toContain('accounts.example.com: Connect your calendar.');
    const done = await paired.person.nextScreen(seen);
    expect(questionOf(done.lines)).toContain('accounts.example.com');
    await paired.person.tap(done.id, { id: 'ask', value: 'Done' });
    const text = resultText(await call);
    expect(text).toContain('User completed the URL elicitation flow');
    expect(rawResult(text)).toEqual({ action: 'accept' });
  });
});
