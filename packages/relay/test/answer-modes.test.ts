// Who answers: `both` (client and phone at once, the first answer wins, the other is withdrawn) and
// `client-first` (the client's own elicitation, then the phone when it declines or runs out of time).
import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientThroughRelay, EVERYTHING, relayArgs, relayFiles, resultText } from './harness.js';
import { expectWithdrawn, questionOf, rawResult } from './person.js';
import { pairedAgent, type Service, startService } from './service.js';

type Handler = (signal: AbortSignal) => Promise<ElicitResult>;

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

/** A relay in `mode` whose client declares form elicitation and answers with whatever `next` says. */
async function setUp(name: string, mode: string, clientWait?: number) {
  const paired = await pairedAgent(service.base, name);
  const files = relayFiles(paired.token);
  const args = relayArgs({
    mcpUrl: service.mcpUrl,
    tokenFile: files.tokenFile,
    answer: mode,
    ...(clientWait !== undefined ? { clientWait } : {}),
    server: [process.execPath, EVERYTHING],
  });
  const { client } = await clientThroughRelay(args, { elicitation: { form: {} } });
  const handlers: Handler[] = [];
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    asked.push(req.params.message);
    const h = handlers.shift();
    if (!h) throw new Error('no client answer prepared');
    return await h(extra.signal);
  });
  return { paired, files, client, handlers, asked, seen: new Set<string>() };
}

const never: (cancelled: (reason: unknown) => void) => Handler = (cancelled) => (signal) =>
  new Promise((_, reject) =>
    signal.addEventListener('abort', () => {
      cancelled(signal.reason);
      reject(signal.reason);
    }),
  );

async function tearDown(s: { client: Client; files: { dir: string } }) {
  await s.client.close();
  fs.rmSync(s.files.dir, { recursive: true, force: true });
}

describe('both', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    s = await setUp('Everything both', 'both');
  });
  afterAll(async () => {
    if (s) await tearDown(s);
  });

  it('the client answers first: the server receives its content and the phone screen is withdrawn', async () => {
    let screenShown!: () => void;
    const shown = new Promise<void>((r) => {
      screenShown = r;
    });
    s.handlers.push(async () => {
      await shown;
      return { action: 'accept', content: { name: 'From the desk' } };
    });
    const call = s.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const phone = await s.paired.person.nextScreen(s.seen);
    expect(questionOf(phone.lines)).toContain('Everything Reference Server');
    screenShown();
    expect(rawResult(resultText(await call))).toEqual({
      action: 'accept',
      content: { name: 'From the desk' },
    });
    // Withdrawn on the service: the thread shows it withdrawn and a tap on it is refused, so it answers nothing.
    await expectWithdrawn(s.paired.person, phone.id);
    expect((await s.paired.person.messages()).map((m) => m.body).join('\n')).not.toContain('Never mind');
    expect(s.asked).toEqual(['Please provide inputs for the following fields:']);
  });

  it('the phone answers first: the server receives the phone answer and the client request is cancelled', async () => {
    let cancelled: unknown;
    s.handlers.push(
      never((r) => {
        cancelled = r;
      }),
    );
    const call = s.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const phone = await s.paired.person.nextScreen(s.seen);
    await s.paired.person.tap(phone.id, { id: 'ask', value: 'Decline' });
    expect(rawResult(resultText(await call))).toEqual({ action: 'decline' });
    await expect.poll(() => cancelled).toBeDefined();
    expect(String(cancelled)).toContain('the phone answered first');
  });
});

describe('client-first', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    s = await setUp('Everything client first', 'client-first', 2);
  });
  afterAll(async () => {
    if (s) await tearDown(s);
  });

  it('an accept from the client goes to the server and nothing reaches the phone', async () => {
    s.handlers.push(async () => ({ action: 'accept', content: { name: 'Desk only' } }));
    const before = (await s.paired.person.screens()).length;
    const r = await s.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(rawResult(resultText(r))).toEqual({ action: 'accept', content: { name: 'Desk only' } });
    expect(await s.paired.person.screens()).toHaveLength(before);
  });

  it('an accept that breaks the schema is not passed on: the phone is asked', async () => {
    s.handlers.push(async () => ({ action: 'accept', content: { name: 'Ok', integer: 1000 } }));
    const call = s.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const phone = await s.paired.person.nextScreen(s.seen);
    await s.paired.person.tap(phone.id, { id: 'ask', value: 'Cancel' });
    expect(rawResult(resultText(await call))).toEqual({ action: 'cancel' });
  });

  it('the client declines: the phone is asked, and its answer is what the server receives', async () => {
    s.handlers.push(async () => ({ action: 'decline' }));
    const call = s.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const phone = await s.paired.person.nextScreen(s.seen);
    await s.paired.person.tap(phone.id, { id: 'ask', value: 'Cancel' });
    expect(rawResult(resultText(await call))).toEqual({ action: 'cancel' });
  });

  it('the client does not answer in time: its request is cancelled and the phone is asked', async () => {
    let cancelled: unknown;
    s.handlers.push(
      never((r) => {
        cancelled = r;
      }),
    );
    const call = s.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const phone = await s.paired.person.nextScreen(s.seen);
    expect(String(cancelled)).toContain('did not answer in time');
    await s.paired.person.tap(phone.id, { id: 'ask', value: 'Decline' });
    expect(rawResult(resultText(await call))).toEqual({ action: 'decline' });
  });
});
