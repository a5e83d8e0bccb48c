// The resumable long poll (ADR 0274) over real HTTP with the official 1.x client: a TCP proxy between client
// and server swallows the one response that carries an answer and resets the client's connection, the worst
// moment (the server read the answer and wrote its response; the client never got it). With a cursor the next
// call returns the answer again, and once acknowledged never again; the claim (no cursor) loses it.

import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Stack, startStack } from './harness.js';

/**
 * A TCP proxy to `target`: each client connection gets its own upstream one. `dropNext()` arms it to swallow
 * the next response holding `marker` and reset that client's connection instead of passing it on.
 */
async function startDroppingProxy(marker: string) {
  let target = 0;
  let armed = false;
  let dropped = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (d) => upstream.write(d));
    let held = '';
    upstream.on('data', (d) => {
      held += d.toString('latin1');
      if (armed && held.includes(marker)) {
        armed = false;
        dropped++;
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      // Pass on what is not (yet) the response to drop: the marker sits in the body, after the headers.
      if (!armed || !held.includes('\r\n\r\n') || held.length > 64_000) {
        client.write(Buffer.from(held, 'latin1'));
        held = '';
      }
    });
    upstream.on('end', () => {
      if (held) client.write(Buffer.from(held, 'latin1'));
      client.end();
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setTarget: (port: number) => {
      target = port;
    },
    dropNext: () => {
      armed = true;
    },
    dropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let stack: Stack;
let proxy: Awaited<ReturnType<typeof startDroppingProxy>>;
beforeAll(async () => {
  proxy = await startDroppingProxy('"answers":[{');
  stack = await startStack({ allowedHosts: [`127.0.0.1:${proxy.port}`] });
  proxy.setTarget(Number(new URL(stack.mcpUrl).port));
});
afterAll(async () => {
  await stack.close();
  await proxy.close();
});

type Result = { answers: { id: string; text: string }[]; cursor?: string };

/** The official 1.x client, through the proxy. */
async function clientThroughProxy(token: string) {
  const url = new URL(stack.mcpUrl);
  url.port = String(proxy.port);
  const client = new Client({ name: 'svc-resume', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const answers = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'svc_answers', arguments: args })).structuredContent as Result;
  return { client, answers };
}

describe('a wait whose response is lost on a dropped connection', () => {
  it('with a cursor: the next call returns the answer again, and after it is acknowledged never again', async () => {
    const { user, agent, token } = await stack.newConnection('Resumer');
    const { client, answers } = await clientThroughProxy(token);
    try {
      const first = await answers({ cursor: '' });
      expect(first).toMatchObject({ answers: [], cursor: '' });
      proxy.dropNext();
      const before = proxy.dropped();
      const waiting = answers({ cursor: first.cursor, wait: 25 });
      await vi.waitFor(() => expect(stack.notifier.listenerCount(user.id)).toBe(1));
      await stack.threads.say(user.id, agent.id, { text: 'lost on the way' });
      await expect(waiting).rejects.toThrow();
      expect(proxy.dropped()).toBe(before + 1);

      // The client never saw that result: it calls again with the cursor it holds, and gets the answer.
      const again = await answers({ cursor: first.cursor, wait: 25 });
      expect(again.answers.map((a) => a.text)).toEqual(['lost on the way']);
      expect(again.cursor).not.toBe('');
      // Acknowledged by the next call's cursor: never returned again.
      const after = await answers({ cursor: again.cursor, wait: 0 });
      expect(after).toEqual({ agent: expect.any(Object), answers: [], cursor: '' });
      await stack.threads.say(user.id, agent.id, { text: 'next' });
      expect((await answers({ cursor: after.cursor, wait: 0 })).answers.map((a) => a.text)).toEqual(['next']);
    } finally {
      await client.close();
    }
  });

  it('without a cursor (the claim): the answer is gone with the response, why the cursor exists', async () => {
    const { user, agent, token } = await stack.newConnection('Claimer');
    const { client, answers } = await clientThroughProxy(token);
    try {
      proxy.dropNext();
      const waiting = answers({ wait: 25 });
      await vi.waitFor(() => expect(stack.notifier.listenerCount(user.id)).toBe(1));
      await stack.threads.say(user.id, agent.id, { text: 'claimed and lost' });
      await expect(waiting).rejects.toThrow();
      expect((await answers({ wait: 0 })).answers).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a cursor this server did not give is refused, naming the field', async () => {
    const { token } = await stack.newConnection('Forger');
    const { client } = await clientThroughProxy(token);
    try {
      const r = await client.callTool({ name: 'svc_answers', arguments: { cursor: 'bm90IGFuIGlkIQ' } });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ error: { code: 'invalid_input', field: 'cursor' } });
    } finally {
      await client.close();
    }
  });
});
