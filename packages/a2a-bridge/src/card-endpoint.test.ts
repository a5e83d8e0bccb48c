// Issue 46 item 4: a remote card cannot point the bridge anywhere. The endpoint is shown at pair; one on
// another origin than the card is refused unless the person confirms it; a failing agent is not retried
// without end: the bridge stops with a line in the thread.

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridge } from './bridge.js';
import { checkCardEndpoint, fetchAgentCard } from './card.js';
import { readTarget } from './commands/home.js';
import { BridgeError } from './errors.js';
import { Outbox } from './outbox.js';
import { MemoryServiceLink } from './service-link.js';
import { StateFile } from './state-file.js';

let cards: http.Server;
let other: http.Server;
let base: string;
let elsewhere: string;
let rpcCalls = 0;

const card = (endpoint: string) => ({
  name: 'Pointer',
  supportedInterfaces: [{ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: false },
  skills: [],
});

beforeAll(async () => {
  other = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  cards = http.createServer((req, res) => {
    if (req.url?.startsWith('/away/')) {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(card(`${elsewhere}/admin`)));
    }
    if (req.url?.startsWith('/home/')) {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(card(`${base}/rpc`)));
    }
    // The endpoint of /home: answers every call with something that is not JSON-RPC.
    rpcCalls++;
    req.resume();
    res.writeHead(500).end('broken');
  });
  await new Promise<void>((r) => cards.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(cards.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of [cards, other]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('the card endpoint', () => {
  it('refuses an endpoint on another origin than the card, naming it and how to confirm', async () => {
    const err = await readTarget({ card: `${base}/away`, headers: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as BridgeError).code).toBe('CARD_ENDPOINT_ELSEWHERE');
    expect((err as Error).message).toContain(`sends messages to ${elsewhere}/admin`);
    expect((err as Error).message).toContain(`--allow-endpoint ${elsewhere}`);
  });

  it('takes it when the person confirmed exactly that origin, and keeps the confirmation', async () => {
    const target = await readTarget({ card: `${base}/away`, headers: {}, allowEndpoint: `${elsewhere}/` });
    expect(target).toMatchObject({ kind: 'a2a', endpointOrigin: elsewhere });
    expect(target.card?.endpoint).toBe(`${elsewhere}/admin`);
    await expect(readTarget({ card: `${base}/away`, headers: {}, allowEndpoint: base })).rejects.toThrow(
      /another address than the card's/,
    );
  });

  it('takes an endpoint on the card’s own origin without asking', async () => {
    const info = await fetchAgentCard(`${base}/home`);
    expect(() => checkCardEndpoint(info)).not.toThrow();
  });
});

describe('webhook URLs', () => {
  it('refuses plain http outside this machine; takes https, and http to loopback for development', async () => {
    await expect(readTarget({ webhook: 'http://hooks.example.com/svc', headers: {} })).rejects.toMatchObject({
      code: 'INVALID_WEBHOOK_URL',
      message: expect.stringMatching(/plain http; give the https:\/\/ address/),
    });
    await expect(readTarget({ webhook: 'http://10.0.0.5/svc', headers: {} })).rejects.toThrow(/plain http/);
    await expect(
      readTarget({ webhook: 'https://hooks.example.com/svc', headers: {} }),
    ).resolves.toMatchObject({
      kind: 'webhook',
    });
    await expect(readTarget({ webhook: 'http://127.0.0.1:8788/svc', headers: {} })).resolves.toMatchObject({
      kind: 'webhook',
    });
  });
});

describe('a failing agent', () => {
  it('is not retried without end: after 5 failed steps the bridge stops and tells the person', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a2a-giveup-'));
    const link = new MemoryServiceLink();
    const gaveUp: string[] = [];
    const bridge = createBridge({
      link,
      state: new StateFile(join(dir, 'state.json')),
      outbox: new Outbox(join(dir, 'outbox')),
      idleMs: 1,
      sendAttempts: 1,
      wait: async () => {},
      onGiveUp: (agentId) => gaveUp.push(agentId),
    });
    const agent = { agentId: 'agent-broken', card: await fetchAgentCard(`${base}/home`) };
    await link.addRow(agent.agentId, { id: 'r1', text: 'deploy please' });
    const before = rpcCalls;
    try {
      // run returns by itself: the signal is never aborted.
      await bridge.run([agent], new AbortController().signal);
      expect(gaveUp).toEqual([agent.agentId]);
      const last = (await link.posts(agent.agentId)).at(-1);
      expect(last).toMatchObject({ kind: 'status', meta: { turn: [] } });
      expect(last?.text).toMatch(/failed 5 times in a row .*The bridge stopped trying/s);
      expect(rpcCalls - before).toBeLessThanOrEqual(10);
      expect(await link.isDelivered('r1')).toBe(true); // delivered to the turn, still unanswered
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
